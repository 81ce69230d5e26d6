import type { Context, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { ForbiddenError, UnauthorizedError } from "../errors/app-error.ts";
import { ACCOUNT_KINDS } from "./account-kinds.ts";
import { ACCESS_COOKIE, hasAccessCookie, readSessionCookie } from "./cookies.ts";
import type { Principal, PrincipalKind } from "./principal.ts";
import { isSessionClaims, verifyToken } from "./tokens.ts";

/** `security` of routes that need a signed-in principal (the access_token cookie). */
export const COOKIE_SECURITY = [{ accessCookie: [] }];

/** Public routes that show more to a signed-in caller; a present but invalid cookie is a 401. */
export const OPTIONAL_COOKIE_SECURITY = [{}, ...COOKIE_SECURITY];

/**
 * The guard of a route for one kind of signed-in account, spread into `createRoute`: the cookie
 * scheme and the kind (`x-account-kind`) in the document, and the middleware that enforces them
 * (then `c.var.deps.principal` is the caller), followed by the route's own middleware. The
 * whole-table guard test reads the document and checks every route against it.
 */
export const signedIn = <K extends PrincipalKind, M extends MiddlewareHandler<AppEnv>[]>(
  kind: K,
  ...more: M
) => ({
  security: COOKIE_SECURITY,
  "x-account-kind": kind,
  middleware: [requirePrincipal(kind), ...more] as [MiddlewareHandler<AppEnv>, ...M],
});

/**
 * The guard of a route open to everyone, spread into `createRoute` like the others: an explicit
 * empty `security` in the document (no operation is public by omission), no middleware.
 */
export const publicRoute = () => ({ security: [] as Array<Record<string, string[]>> });

/** The guard of a public route that shows more to a signed-in caller (`c.var.deps.viewer`). */
export const maybeSignedIn = () => ({
  security: OPTIONAL_COOKIE_SECURITY,
  middleware: [optionalPrincipal] as [MiddlewareHandler<AppEnv>],
});

/**
 * The caller's principal from the `access_token` cookie (browsers send it; API clients send the
 * header `Cookie: access_token=…`). The signature and expiry are checked here, without the
 * database; that the session is still live is checked on every request by the request's first
 * database round trip, which carries `liveSessionStatement` first (see request-context.ts). So
 * signing out or a revoked session takes effect at once, not when the 5-minute token expires, and
 * costs no round trip of its own.
 */
async function authenticate(c: Context<AppEnv>): Promise<Principal> {
  const token = readSessionCookie(c, ACCESS_COOKIE);
  if (!token) throw new UnauthorizedError("Sign in to continue: no access token.");
  const { env, now } = c.var.deps;
  const claims = await verifyToken(env.JWT_SECRET, "access", token, now);
  if (!isSessionClaims(claims)) throw new UnauthorizedError("The token is invalid.");
  return { kind: claims.kind, id: claims.sub, sessionId: claims.sid };
}

/**
 * A route open to everyone that shows more to its owner: no access cookie → signed out. A cookie
 * that is present but invalid, expired or of an ended session → 401, as on protected routes, so
 * that a client refreshes instead of taking its own private or unfinished resource for a missing
 * one.
 */
const optionalPrincipal = createMiddleware<AppEnv>(async (c, next) => {
  if (hasAccessCookie(c)) {
    c.set("principal", await authenticate(c));
  }
  await next();
});

/**
 * A route for one account kind: no or bad credentials → 401; a valid session of the other
 * kind → 403 (signed in, but as the wrong kind of account).
 */
const requirePrincipal = (kind: PrincipalKind) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const principal = await authenticate(c);
    if (principal.kind !== kind) {
      throw new ForbiddenError(
        `This needs a signed-in ${kind}; you are signed in as ${ACCOUNT_KINDS[principal.kind].aName}.`,
      );
    }
    c.set("principal", principal);
    await next();
  });

/** (owner) routes: the resource must belong to the caller. */
export function assertOwner(principal: Principal, ownerId: string, what = "resource"): void {
  if (principal.id !== ownerId) throw new ForbiddenError(`Only the owner may change this ${what}.`);
}
