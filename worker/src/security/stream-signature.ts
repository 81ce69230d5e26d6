import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";

/**
 * Signed, expiring stream URLs of a track that is not public (ADR 0026): `?exp=<unix seconds>
 * &sig=<base64url HMAC-SHA256>`. The MAC is keyed by the Worker's JWT_SECRET and covers the
 * track id, the expiry and the track's current share key, so rotating the key ends every URL
 * signed before, and nobody without the Worker's secret can mint or extend one.
 */
export interface StreamSignature {
  exp: number;
  sig: string;
}

/** How long a minted URL lasts: a listening session, paused included. */
export const SIGNED_STREAM_SECONDS = 6 * 3600;
/**
 * Expiries are rounded up to the next quarter hour, so that reads within it mint the same URL
 * (a browser's cache of the files keeps working across reads of the track).
 */
const ROUNDING_SECONDS = 900;

const keys = new Map<string, Promise<CryptoKey>>();
const macKey = (secret: string) => {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(`stream-url:${secret}`),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    keys.set(secret, key);
  }
  return key;
};

const message = (trackId: string, exp: number, shareKey: string) =>
  new TextEncoder().encode(`${trackId.toLowerCase()}\n${exp}\n${shareKey}`);

/** A signature of the track's files valid until SIGNED_STREAM_SECONDS from `now` (or more). */
export async function signStream(
  secret: string,
  trackId: string,
  shareKey: string,
  now: Date,
): Promise<StreamSignature> {
  const seconds = Math.floor(now.getTime() / 1000) + SIGNED_STREAM_SECONDS;
  const exp = Math.ceil(seconds / ROUNDING_SECONDS) * ROUNDING_SECONDS;
  const mac = await crypto.subtle.sign(
    "HMAC",
    await macKey(secret),
    message(trackId, exp, shareKey),
  );
  return { exp, sig: encodeBase64urlNoPadding(new Uint8Array(mac)) };
}

/** Whether `exp` and `sig` (as the query gave them) sign this track under its share key now. */
export async function verifyStream(
  secret: string,
  trackId: string,
  shareKey: string,
  given: { exp?: string | undefined; sig?: string | undefined },
  now: Date,
): Promise<boolean> {
  if (!given.exp || !given.sig || !/^\d{1,12}$/.test(given.exp)) return false;
  const exp = Number(given.exp);
  if (exp * 1000 <= now.getTime()) return false;
  let mac: Uint8Array;
  try {
    mac = decodeBase64urlIgnorePadding(given.sig);
  } catch {
    return false;
  }
  // crypto.subtle.verify compares in constant time.
  return await crypto.subtle.verify(
    "HMAC",
    await macKey(secret),
    new Uint8Array(mac),
    message(trackId, exp, shareKey),
  );
}

/** `?exp=…&sig=…`, the query string a signed URL carries. */
export const signatureQuery = (signature: StreamSignature) =>
  `exp=${signature.exp}&sig=${signature.sig}`;
