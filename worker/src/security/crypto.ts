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

/** AES-256-GCM; the output is `<iv>.<ciphertext>` in base64url. `context` binds it to its row. */
export async function encrypt(base64Key: string, plain: Uint8Array<ArrayBuffer>, context: string) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
    await aesKey(base64Key),
    plain,
  );
  return `${encodeBase64urlNoPadding(iv)}.${encodeBase64urlNoPadding(new Uint8Array(sealed))}`;
}

export async function decrypt(base64Key: string, sealed: string, context: string) {
  const [iv, data] = sealed.split(".").map(fromBase64url);
  if (!iv || !data) throw new Error("malformed ciphertext");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
    await aesKey(base64Key),
    data,
  );
  return new Uint8Array(plain);
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
