import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { type Env, sealingKeys } from "../env.ts";
import type { PrincipalKind } from "./account-kinds.ts";
import { decrypt, encrypt, keyedHashHex } from "./crypto.ts";

/**
 * An app password's secret: 20 random bytes (160 bits) as 32 lower-case base32 characters, easy
 * to type into a phone and safe in a URL. At that strength no rate limit is what keeps it from
 * being guessed; the limits only keep failed checks from costing us.
 */
export const newAppPasswordSecret = () =>
  encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));

/** The associated data that binds a sealed secret to its row. */
const sealContext = (kind: PrincipalKind, id: string) => `app-password:${kind}:${id}`;

type Keys = Pick<Env, "ENCRYPTION_KEY" | "ENCRYPTION_KEYS_PREVIOUS">;

/** Sealed at rest with the keys that seal the TOTP secrets. */
export const sealAppPassword = (env: Keys, kind: PrincipalKind, id: string, secret: string) =>
  encrypt(sealingKeys(env), new TextEncoder().encode(secret), sealContext(kind, id));

/** The secret back (token auth needs md5(secret + salt)); throws when no key opens it. */
export async function openAppPassword(
  env: Keys,
  kind: PrincipalKind,
  id: string,
  sealed: string,
): Promise<string> {
  const plain = await decrypt(sealingKeys(env), sealed, sealContext(kind, id));
  return new TextDecoder().decode(plain);
}

/** How a secret is found again: its keyed hash under the current key (stored with the row). */
export const appPasswordHash = (env: Keys, secret: string) =>
  keyedHashHex(env.ENCRYPTION_KEY, "app-password", secret);

/** Every hash a stored secret may have: under each key of the keyring, the current first. */
export async function appPasswordHashCandidates(env: Keys, secret: string): Promise<string[]> {
  const { current, previous } = sealingKeys(env);
  return await Promise.all(
    [current, ...previous].map((key) => keyedHashHex(key, "app-password", secret)),
  );
}
