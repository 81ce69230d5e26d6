import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, primaryId, timestamptz } from "../columns";
import { type PrincipalKind, type PrincipalTable, principalId } from "./principal";

export function recoveryCodesTable<K extends PrincipalKind>(kind: K, principal: PrincipalTable) {
  const name = `${kind}_recovery_codes` as const;
  return pgTable(
    name,
    {
      id: primaryId(),
      principalId: principalId(kind, principal),
      // Only a hash is stored: a recovery code bypasses the second factor like a password would.
      codeHash: text("code_hash").notNull(),
      usedAt: timestamptz("used_at"),
      createdAt: createdAt(),
    },
    (t) => [index(`${name}_${kind}_id_idx`).on(t.principalId)],
  );
}
