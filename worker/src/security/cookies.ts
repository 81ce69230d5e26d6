import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { CookieOptions } from "hono/utils/cookie";
import type { Env } from "../env.ts";
import { UnauthorizedError } from "../errors/app-error.ts";
import type { AccountKind } from "./account-kinds.ts";
import { ACCESS_TTL_SECONDS, REFRESH_TTL_SECONDS } from "./tokens.ts";

export const ACCESS_COOKIE = "access_token";
export const REFRESH_COOKIE = "refresh_token";

/** `Secure` everywhere except a plain-http localhost base URL (local development). */
function secure(env: Env): boolean {
  const base = new URL(env.PUBLIC_BASE_URL);
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(base.hostname);
  return !(base.protocol === "http:" && local);
}

const base = (env: Env): CookieOptions => ({
  httpOnly: true,
  secure: secure(env),
  sameSite: "Lax",
});

/**
 * The access token goes to the whole API; the refresh token only to its kind's auth routes
 * (refresh and logout), so it travels as rarely as possible.
 */
const accessOptions = (env: Env): CookieOptions => ({ ...base(env), path: "/api/v1" });
const refreshOptions = (env: Env, account: AccountKind): CookieOptions => ({
  ...base(env),
  path: account.authPath,
});

/** Where the session cookies go: the environment and the account kind they are for. */
export interface CookieScope {
  readonly env: Env;
  readonly account: AccountKind;
}

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

export function setSessionCookies(c: Context, scope: CookieScope, tokens: SessionTokens) {
  setCookie(c, ACCESS_COOKIE, tokens.accessToken, {
    ...accessOptions(scope.env),
    maxAge: ACCESS_TTL_SECONDS,
  });
  setCookie(c, REFRESH_COOKIE, tokens.refreshToken, {
    ...refreshOptions(scope.env, scope.account),
    maxAge: REFRESH_TTL_SECONDS,
  });
}

export function clearSessionCookies(c: Context, scope: CookieScope) {
  deleteCookie(c, ACCESS_COOKIE, accessOptions(scope.env));
  deleteCookie(c, REFRESH_COOKIE, refreshOptions(scope.env, scope.account));
}

/** Whether the request carries a non-empty access cookie (a caller who means to be signed in). */
export const hasAccessCookie = (c: Context) =>
  !readCookieValues(c, ACCESS_COOKIE).every((value) => value === "");

/**
 * Every value the Cookie header holds for `name`, in order. Browsers send one per cookie whose
 * path and domain match, so a sibling subdomain can add its own beside ours ("cookie tossing").
 */
export function readCookieValues(c: Context, name: string): string[] {
  const values: string[] = [];
  for (const pair of (c.req.header("cookie") ?? "").split(";")) {
    const eq = pair.indexOf("=");
    if (eq === -1 || pair.slice(0, eq).trim() !== name) continue;
    const value = pair.slice(eq + 1).trim();
    values.push(
      value.length > 1 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value,
    );
  }
  return values;
}

/**
 * A session cookie (access or refresh token), refused when the header holds it more than once.
 * The header says nothing about where a cookie came from, only its order (longest path first), so
 * a tossed cookie can come first: taking the first would sign the victim into the tosser's
 * account (their uploads and playlists land there), taking the last the other way round. Neither
 * is safe, so a duplicate is a 401 and neither token is used. Callers must not clear cookies on
 * this error: that would delete only our own cookie and leave the tossed one.
 */
export function readSessionCookie(c: Context, name: string): string | undefined {
  if (readCookieValues(c, name).length > 1) {
    throw new UnauthorizedError(
      `The request carries more than one ${name} cookie, and one was not set by this service. Remove this site's cookies and sign in again.`,
    );
  }
  return getCookie(c, name);
}

/**
 * Short-lived helper cookies (OAuth state, a sign-in pending its second factor) of one account
 * kind. Over https they carry the `__Host-` prefix (so `Secure`, `Path=/` and no `Domain`: no
 * subdomain or plain-http page can set or overwrite them) and the kind in their name, since the
 * path no longer keeps the kinds apart; on a plain-http localhost, where the prefix is
 * impossible, their bare name on the kind's path.
 */
export interface FlowCookie {
  name: string;
  /** The account kind's auth path (`/api/v1/users/auth`) or a route under it. */
  path: string;
  kind: string;
}

export function setFlowCookie(
  c: Context,
  env: Env,
  cookie: FlowCookie,
  value: string,
  maxAge: number,
) {
  if (secure(env)) {
    const options = { ...base(env), path: "/", maxAge, prefix: "host" } as const;
    setCookie(c, `${cookie.name}_${cookie.kind}`, value, options);
  } else setCookie(c, cookie.name, value, { ...base(env), path: cookie.path, maxAge });
}

export function clearFlowCookie(c: Context, env: Env, cookie: FlowCookie) {
  if (secure(env)) {
    deleteCookie(c, `${cookie.name}_${cookie.kind}`, { ...base(env), path: "/", prefix: "host" });
  } else deleteCookie(c, cookie.name, { ...base(env), path: cookie.path });
}

/** A helper cookie's value, under the name `setFlowCookie` gave it. */
export function readFlowCookie(c: Context, env: Env, cookie: FlowCookie): string | undefined {
  return secure(env)
    ? getCookie(c, `${cookie.name}_${cookie.kind}`, "host")
    : getCookie(c, cookie.name);
}
