import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, primaryId, timestamptz } from "../columns";
import { type PrincipalKind, type PrincipalTable, principalId } from "./principal";

export function passwordResetTokensTable<K extends PrincipalKind>(
  kind: K,
  principal: PrincipalTable,
) {
  const name = `${kind}_password_reset_tokens` as const;
  return pgTable(
    name,
    {
      id: primaryId(),
      principalId: principalId(kind, principal),
      // SHA-256 hex of the emailed token: a database leak must not hand out working reset links.
      tokenHash: text("token_hash").notNull(),
      expiresAt: timestamptz("expires_at").notNull(),
      usedAt: timestamptz("used_at"),
      createdAt: createdAt(),
    },
    (t) => [
      uniqueIndex(`${name}_token_hash_idx`).on(t.tokenHash),
      index(`${name}_${kind}_id_idx`).on(t.principalId),
    ],
  );
}
