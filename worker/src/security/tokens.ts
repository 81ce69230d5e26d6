import { errors, jwtVerify, SignJWT } from "jose";
import { UnauthorizedError } from "../errors/app-error.ts";
import type { PrincipalKind } from "./account-kinds.ts";

const ISSUER = "edge-music";
const ALGORITHM = "HS256";

/** Each kind of token has its own audience, so one can never be replayed as another. */
export type TokenType = "access" | "refresh" | "oauth-state" | "pending-2fa";

export const ACCESS_TTL_SECONDS = 5 * 60;
export const REFRESH_TTL_SECONDS = 30 * 24 * 60 * 60;
/**
 * A session unused this long (no sign-in or refresh) has ended: its refresh is refused (ASVS 5.0
 * 7.3.1). Within it, a listener who comes back within two weeks is still signed in.
 */
export const SESSION_IDLE_SECONDS = 14 * 24 * 60 * 60;

export interface SessionClaims {
  sub: string;
  sid: string;
  kind: PrincipalKind;
  /** Refresh tokens only: the rotation id the session must still hold. */
  jti?: string;
}

const keys = new Map<string, Uint8Array>();
const keyOf = (secret: string) => {
  let key = keys.get(secret);
  if (!key) {
    key = new TextEncoder().encode(secret);
    keys.set(secret, key);
  }
  return key;
};

export async function signToken(
  secret: string,
  type: TokenType,
  claims: Record<string, unknown>,
  ttlSeconds: number,
  now: Date,
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return await new SignJWT(claims)
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setIssuer(ISSUER)
    .setAudience(`${ISSUER}:${type}`)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .sign(keyOf(secret));
}

/**
 * Verifies signature (HS256 only: `alg: none` and asymmetric algorithms are refused), issuer,
 * audience, expiry and not-before. A token without `exp` is refused too: jose would take it as
 * never expiring. Every failure is a 401; the detail says "expired" when that is the reason.
 */
export async function verifyToken<T extends Record<string, unknown>>(
  secret: string,
  type: TokenType,
  token: string,
  now: Date,
): Promise<T> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: `${ISSUER}:${type}`,
      requiredClaims: ["exp", "iat"],
      currentDate: now,
    });
    return payload as unknown as T;
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new UnauthorizedError("The token has expired.");
    throw new UnauthorizedError("The token is invalid.");
  }
}

export function isSessionClaims(
  value: Record<string, unknown>,
): value is Record<string, unknown> & SessionClaims {
  return (
    typeof value.sub === "string" &&
    typeof value.sid === "string" &&
    (value.kind === "user" || value.kind === "artist")
  );
}
