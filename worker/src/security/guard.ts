import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { ForbiddenError, UnauthorizedError } from "../errors/app-error.ts";
import type { PrincipalKind } from "./account-kinds.ts";
import { ACCESS_COOKIE, readCookieValues, readSessionCookie } from "./cookies.ts";
import { findLiveSession } from "./sessions.ts";
import { isSessionClaims, verifyToken } from "./tokens.ts";

/** Who is calling: set by the guards on every protected route. */
export interface Principal {
  kind: PrincipalKind;
  id: string;
  sessionId: string;
}

/**
 * The caller's principal from the `access_token` cookie (browsers send it; API clients send the
 * header `Cookie: access_token=…`). The session is checked on every request, so signing out or a
 * revoked session takes effect at once, not when the 5-minute token expires.
 */
export async function authenticate(c: Context<AppEnv>): Promise<Principal> {
  const token = readSessionCookie(c, ACCESS_COOKIE);
  if (!token) throw new UnauthorizedError("Sign in to continue: no access token.");
  const env = c.get("env");
  const now = new Date();
  const claims = await verifyToken(env.JWT_SECRET, "access", token, now);
  if (!isSessionClaims(claims)) throw new UnauthorizedError("The token is invalid.");
  const session = await findLiveSession(
    c.get("services").db(),
    claims.kind,
    claims.sid,
    claims.sub,
    now,
  );
  if (!session) throw new UnauthorizedError("The session has ended. Sign in again.");
  return { kind: claims.kind, id: claims.sub, sessionId: claims.sid };
}

/**
 * The caller on a route open to everyone that shows more to its owner: no access cookie →
 * signed out (null). A cookie that is present but invalid, expired or of an ended session → 401,
 * as on protected routes, so that a client refreshes instead of taking its own private or
 * unfinished resource for a missing one.
 */
export async function optionalPrincipal(c: Context<AppEnv>): Promise<Principal | null> {
  if (readCookieValues(c, ACCESS_COOKIE).every((value) => value === "")) return null;
  return await authenticate(c);
}

/**
 * A route for one account kind: no or bad credentials → 401; a valid session of the other
 * kind → 403 (signed in, but as the wrong kind of account).
 */
export const requirePrincipal = (kind: PrincipalKind) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const principal = await authenticate(c);
    if (principal.kind !== kind) {
      throw new ForbiddenError(
        `This needs a signed-in ${kind}; you are signed in as ${principal.kind === "user" ? "a user" : "an artist"}.`,
      );
    }
    c.set("principal", principal);
    await next();
  });

export const requireUser = requirePrincipal("user");
export const requireArtist = requirePrincipal("artist");

/** (owner) routes: the resource must belong to the caller. */
export function assertOwner(principal: Principal, ownerId: string, what = "resource"): void {
  if (principal.id !== ownerId) throw new ForbiddenError(`Only the owner may change this ${what}.`);
}

/** The client address as Cloudflare reports it (it overwrites any value a client sends). */
export const clientIp = (c: Context) => c.req.header("cf-connecting-ip") ?? "unknown";
