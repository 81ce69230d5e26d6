import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { CookieOptions } from "hono/utils/cookie";
import type { Env } from "../env.ts";
import { KIND_TABLES, type PrincipalKind } from "./kinds.ts";
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
const refreshOptions = (env: Env, kind: PrincipalKind): CookieOptions => ({
  ...base(env),
  path: KIND_TABLES[kind].authPath,
});

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

export function setSessionCookies(
  c: Context,
  env: Env,
  kind: PrincipalKind,
  tokens: SessionTokens,
) {
  setCookie(c, ACCESS_COOKIE, tokens.accessToken, {
    ...accessOptions(env),
    maxAge: ACCESS_TTL_SECONDS,
  });
  setCookie(c, REFRESH_COOKIE, tokens.refreshToken, {
    ...refreshOptions(env, kind),
    maxAge: REFRESH_TTL_SECONDS,
  });
}

export function clearSessionCookies(c: Context, env: Env, kind: PrincipalKind) {
  deleteCookie(c, ACCESS_COOKIE, accessOptions(env));
  deleteCookie(c, REFRESH_COOKIE, refreshOptions(env, kind));
}

export const readCookie = (c: Context, name: string) => getCookie(c, name);

/** Short-lived helper cookies (OAuth state, a sign-in pending its second factor). */
export function setFlowCookie(
  c: Context,
  env: Env,
  name: string,
  value: string,
  path: string,
  maxAge: number,
) {
  setCookie(c, name, value, { ...base(env), path, maxAge });
}

export function clearFlowCookie(c: Context, env: Env, name: string, path: string) {
  deleteCookie(c, name, { ...base(env), path });
}
