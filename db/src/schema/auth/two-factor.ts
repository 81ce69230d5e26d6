import { bigint, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "../columns";
import { type PrincipalKind, type PrincipalTable, principalId } from "./principal";

export function twoFactorTable<K extends PrincipalKind>(kind: K, principal: PrincipalTable) {
  return pgTable(`${kind}_two_factor` as const, {
    principalId: principalId(kind, principal).primaryKey(),
    // AES-GCM ciphertext, not a hash: verifying a TOTP code needs the secret itself back.
    secretCiphertext: text("secret_ciphertext").notNull(),
    // Null until a first code proves the authenticator was set up; until then 2FA is off.
    enabledAt: timestamptz("enabled_at"),
    // Highest TOTP time step accepted so far: a code for this step or earlier is a replay.
    lastUsedStep: bigint("last_used_step", { mode: "number" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  });
}
