import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, primaryId } from "../columns";
import { type PrincipalKind, type PrincipalTable, principalId } from "./principal";

export function oauthAccountsTable<K extends PrincipalKind>(kind: K, principal: PrincipalTable) {
  const name = `${kind}_oauth_accounts` as const;
  return pgTable(
    name,
    {
      id: primaryId(),
      principalId: principalId(kind, principal),
      provider: text("provider").notNull(),
      // The provider's stable user id; sign-in matches on this, never on the email.
      subject: text("subject").notNull(),
      email: text("email"),
      createdAt: createdAt(),
    },
    (t) => [
      // One provider identity signs in to at most one account of this kind.
      uniqueIndex(`${name}_provider_subject_idx`).on(t.provider, t.subject),
      index(`${name}_${kind}_id_idx`).on(t.principalId),
    ],
  );
}
