import { encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { timingSafeEqual } from "./crypto.ts";

/** RFC 6238 as authenticator apps expect it: SHA-1, 30 s steps, 6 digits. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_ISSUER = "Edge Music";
/** Clock skew tolerated between the server and the authenticator, in steps either way. */
const SKEW_STEPS = 1;

export const totpStep = (now: Date) => Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);

/**
 * The time step whose code equals `code` (now ±1 step), or null. Steps at or before
 * `lastUsedStep` never match: a code, once accepted, cannot be replayed.
 */
export function matchTotp(
  key: Uint8Array,
  code: string,
  now: Date,
  lastUsedStep: number | null,
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = totpStep(now);
  let matched: number | null = null;
  // Every candidate is checked (no early exit), so timing does not tell which step matched.
  for (let step = current - SKEW_STEPS; step <= current + SKEW_STEPS; step++) {
    const expected = generateHOTP(key, BigInt(step), TOTP_DIGITS);
    if (timingSafeEqual(expected, code) && (lastUsedStep === null || step > lastUsedStep)) {
      matched ??= step;
    }
  }
  return matched;
}

/**
 * The Key URI Format of authenticator apps. Written out rather than with URLSearchParams, which
 * encodes a space as `+`: some apps then show the issuer as "Edge+Music".
 */
export function totpUri(accountName: string, key: Uint8Array): string {
  const issuer = encodeURIComponent(TOTP_ISSUER);
  const label = `${issuer}:${encodeURIComponent(accountName)}`;
  return `otpauth://totp/${label}?secret=${base32Secret(key)}&issuer=${issuer}&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${TOTP_PERIOD_SECONDS}`;
}

export const base32Secret = (key: Uint8Array) => encodeBase32UpperCaseNoPadding(key);
