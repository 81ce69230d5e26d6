import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, primaryId, timestamptz } from "../columns";
import { type PrincipalKind, type PrincipalTable, principalId } from "./principal";

/**
 * Single-use links that prove an address: mailed to it, they verify it for the account, or move
 * the account to it (an email change).
 */
export function emailTokensTable<K extends PrincipalKind>(kind: K, principal: PrincipalTable) {
  const name = `${kind}_email_tokens` as const;
  return pgTable(
    name,
    {
      id: primaryId(),
      principalId: principalId(kind, principal),
      // The address the link was sent to: it verifies only while the account still has it.
      email: text("email").notNull(),
      // "verify": proves the address the account has; "change": moves the account to `email`.
      purpose: text("purpose", { enum: ["verify", "change"] })
        .notNull()
        .default("verify"),
      // SHA-256 hex of the mailed token: a database leak must not hand out working links.
      tokenHash: text("token_hash").notNull(),
      expiresAt: timestamptz("expires_at").notNull(),
      usedAt: timestamptz("used_at"),
      createdAt: createdAt(),
    },
    (t) => [
      uniqueIndex(`${name}_token_hash_idx`).on(t.tokenHash),
      index(`${name}_${kind}_id_idx`).on(t.principalId),
      check(`${name}_purpose_check`, sql`${t.purpose} in ('verify', 'change')`),
    ],
  );
}
