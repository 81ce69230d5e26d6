import { sql } from "drizzle-orm";
import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "../columns";
import { type PrincipalKind, type PrincipalTable, principalId } from "./principal";

export function sessionsTable<K extends PrincipalKind>(kind: K, principal: PrincipalTable) {
  const name = `${kind}_sessions` as const;
  return pgTable(
    name,
    {
      // The session id carried in access and refresh JWTs.
      id: uuid("id").primaryKey().defaultRandom(),
      principalId: principalId(kind, principal),
      // Only this refresh token is valid; rotation replaces it. Presenting any other token of
      // this session means it was stolen or replayed, and the whole session is revoked.
      refreshTokenId: uuid("refresh_token_id").notNull(),
      // The token the last rotation replaced: presented again within a few seconds of that
      // rotation (a second tab refreshing at the same moment), it gets the current pair instead
      // of revoking the session.
      previousRefreshTokenId: uuid("previous_refresh_token_id"),
      refreshedAt: timestamptz("refreshed_at"),
      expiresAt: timestamptz("expires_at").notNull().default(sql`now() + interval '30 days'`),
      createdAt: createdAt(),
      userAgent: text("user_agent"),
      ip: text("ip"),
    },
    (t) => [index(`${name}_${kind}_id_idx`).on(t.principalId)],
  );
}
