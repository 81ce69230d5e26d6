import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, primaryId, timestamptz } from "../columns";
import { type PrincipalKind, type PrincipalTable, principalId } from "./principal";

/**
 * Named secrets an account gives to apps that speak the Subsonic protocol (worker/src/features/
 * subsonic/). Never a credential of the REST API. Token auth sends md5(secret + salt), so the
 * secret must be readable by the server: it is sealed (AES-GCM, the TOTP secrets' keys), and a
 * keyed hash of it finds the row when the app sends the secret itself (`p`, `apiKey`).
 */
export function appPasswordsTable<K extends PrincipalKind>(kind: K, principal: PrincipalTable) {
  const name = `${kind}_app_passwords` as const;
  return pgTable(
    name,
    {
      id: primaryId(),
      principalId: principalId(kind, principal),
      // What the owner called it ("Phone", "Symfonium"): how it is told apart in the list.
      name: text("name").notNull(),
      // HMAC-SHA-256 hex of the secret under a key derived from the sealing key.
      secretHash: text("secret_hash").notNull(),
      // `<key id>.<iv>.<ciphertext>`, bound to the row's id and kind.
      secretCiphertext: text("secret_ciphertext").notNull(),
      // Written at most every few minutes (see the Subsonic credential check), not on every call.
      lastUsedAt: timestamptz("last_used_at"),
      createdAt: createdAt(),
    },
    (t) => [
      uniqueIndex(`${name}_secret_hash_idx`).on(t.secretHash),
      index(`${name}_${kind}_id_idx`).on(t.principalId),
    ],
  );
}
