import { encodeBase64urlNoPadding } from "@oslojs/encoding";

/** `bytes` random bytes as unpadded base64url (tokens, state, PKCE verifiers). */
export function randomToken(bytes = 32): string {
  return encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Base64url(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return encodeBase64urlNoPadding(new Uint8Array(digest));
}

const keys = new Map<string, Promise<CryptoKey>>();
const aesKey = (base64Key: string) => {
  let key = keys.get(base64Key);
  if (!key) {
    const raw = Uint8Array.from(atob(base64Key), (c) => c.charCodeAt(0));
    key = crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    keys.set(base64Key, key);
  }
  return key;
};

/**
 * The keys that seal secrets at rest: `current` seals, every key opens what it sealed. A new
 * key is introduced by making it current and listing the old one among `previous` until every
 * secret sealed under it is gone or sealed again.
 */
export interface Keyring {
  current: string;
  previous: readonly string[];
}

/** A sealed secret whose key is not in the keyring (it was retired too early). */
export class SealingKeyUnavailableError extends Error {
  constructor(keyId: string) {
    super(`no key ${keyId} in the keyring`);
    this.name = "SealingKeyUnavailableError";
  }
}

const keyIds = new Map<string, Promise<string>>();
/** A short public name of a key (the first 8 characters of its SHA-256, base64url). */
export const keyId = (base64Key: string) => {
  let id = keyIds.get(base64Key);
  if (!id) {
    const raw = Uint8Array.from(atob(base64Key), (c) => c.charCodeAt(0));
    id = crypto.subtle
      .digest("SHA-256", raw)
      .then((digest) => encodeBase64urlNoPadding(new Uint8Array(digest)).slice(0, 8));
    keyIds.set(base64Key, id);
  }
  return id;
};

/**
 * AES-256-GCM under the keyring's current key; the output is `<key id>.<iv>.<ciphertext>` in
 * base64url. `context` binds it to its row.
 */
export async function encrypt(keyring: Keyring, plain: Uint8Array<ArrayBuffer>, context: string) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
    await aesKey(keyring.current),
    plain,
  );
  const id = await keyId(keyring.current);
  return `${id}.${encodeBase64urlNoPadding(iv)}.${encodeBase64urlNoPadding(new Uint8Array(sealed))}`;
}

/**
 * Opens what `encrypt` sealed, with the key it names; a secret sealed before keys were named
 * (`<iv>.<ciphertext>`) is tried with each key, the current first. Throws
 * SealingKeyUnavailableError when no key of the keyring opens it.
 */
export async function decrypt(keyring: Keyring, sealed: string, context: string) {
  const parts = sealed.split(".");
  const keys = [keyring.current, ...keyring.previous];
  let candidates = keys;
  if (parts.length === 3) {
    const wanted = parts.shift() ?? "";
    candidates = [];
    for (const key of keys) if ((await keyId(key)) === wanted) candidates.push(key);
    if (candidates.length === 0) throw new SealingKeyUnavailableError(wanted);
  }
  const [iv, data] = parts.map(fromBase64url);
  if (!iv || !data || parts.length !== 2) throw new Error("malformed ciphertext");
  for (const key of candidates) {
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
        await aesKey(key),
        data,
      );
      return new Uint8Array(plain);
    } catch {
      // Not this key (or not this row): the next one, if any.
    }
  }
  throw new SealingKeyUnavailableError("(unnamed)");
}

/**
 * A keyed hash (HMAC-SHA-256, hex) for values that must be found again but never read back
 * (recovery codes): without the key, a stolen table cannot be searched for guesses.
 */
export async function keyedHashHex(base64Key: string, purpose: string, text: string) {
  // A key of its own per purpose, derived from the sealing key: SHA-256(purpose ‖ 0 ‖ key).
  const raw = Uint8Array.from(atob(base64Key), (c) => c.charCodeAt(0));
  const label = new TextEncoder().encode(purpose);
  const material = new Uint8Array(label.length + 1 + raw.length);
  material.set(label);
  material.set(raw, label.length + 1);
  const key = await crypto.subtle.importKey(
    "raw",
    await crypto.subtle.digest("SHA-256", material),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** Equal-time comparison of two strings (tokens, codes). */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
