import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import type { Env } from "../env.ts";
import { ForbiddenError } from "../errors/app-error.ts";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const cache = new WeakMap<Env, Set<string>>();
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/**
 * An origin with its loopback aliases: a plain-http service on one of localhost, 127.0.0.1 and
 * [::1] is the same server under each name (the dev server prints two of them), so each is allowed.
 */
function withLoopbackAliases(origin: URL): string[] {
  if (origin.protocol !== "http:" || !LOOPBACK.includes(origin.hostname)) return [origin.origin];
  return LOOPBACK.map((host) => `http://${host}${origin.port ? `:${origin.port}` : ""}`);
}

/** The front end, the service itself, and ALLOWED_ORIGINS (local ones under each loopback name). */
export function allowedOrigins(env: Env): Set<string> {
  let origins = cache.get(env);
  if (!origins) {
    origins = new Set(
      [env.FRONTEND_URL, env.PUBLIC_BASE_URL, ...env.ALLOWED_ORIGINS].flatMap((u) =>
        withLoopbackAliases(new URL(u)),
      ),
    );
    cache.set(env, origins);
  }
  return origins;
}

/**
 * CSRF defence in depth (cookies are SameSite=Lax too): a state-changing request that a browser
 * marks as coming from another site is refused with 403 — with or without cookies, which also
 * stops forcing a victim's browser into the attacker's account (login CSRF). API clients that
 * send no Origin are not affected.
 */
export const originCheck = createMiddleware<AppEnv>(async (c, next) => {
  if (UNSAFE.has(c.req.method)) {
    const origin = c.req.header("origin");
    const crossSite = c.req.header("sec-fetch-site") === "cross-site";
    if ((origin && !allowedOrigins(c.get("env")).has(origin)) || (!origin && crossSite)) {
      throw new ForbiddenError(
        `Requests from ${origin ?? "another site"} may not change anything here.`,
      );
    }
  }
  await next();
});

const STREAM_PATH = "/api/v1/tracks/stream/";

/**
 * CORS for the allowed origins, with credentials (the cookies); streaming, which needs no
 * credentials, to any origin (or STREAM_ALLOWED_ORIGINS), exposing what players read.
 */
export const corsForAllowedOrigins = createMiddleware<AppEnv>((c, next) => {
  if (c.req.path.startsWith(STREAM_PATH)) {
    const streamOrigins = c.get("env").STREAM_ALLOWED_ORIGINS;
    const list = streamOrigins.split(",").map((o) => o.trim());
    return cors({
      origin:
        streamOrigins.trim() === "*" ? "*" : (origin) => (list.includes(origin) ? origin : null),
      allowMethods: ["GET", "HEAD"],
      allowHeaders: ["range", "if-none-match"],
      exposeHeaders: ["content-length", "content-range", "accept-ranges", "etag", "x-request-id"],
      maxAge: 86400,
    })(c, next);
  }
  return cors({
    origin: (origin) => (allowedOrigins(c.get("env")).has(origin) ? origin : null),
    credentials: true,
    allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
    allowHeaders: ["content-type", "x-request-id"],
    exposeHeaders: ["x-request-id", "retry-after"],
    maxAge: 600,
  })(c, next);
});

/**
 * CORS of the Subsonic door (/rest): any origin, never credentials. Web players of the protocol
 * (Feishin, Airsonic Refix…) run on origins of their own; a call carries its credential in its
 * parameters and no cookie is ever read there, so a page on another site can do nothing with it
 * that it could not do by sending the same request itself: there is nothing to forge (no CSRF),
 * and the origin check of /api/v1 does not apply.
 */
export const corsForSubsonic = cors({
  origin: "*",
  allowMethods: ["GET", "HEAD", "POST"],
  allowHeaders: ["content-type", "range", "if-none-match"],
  exposeHeaders: ["content-length", "content-range", "accept-ranges", "etag", "x-request-id"],
  maxAge: 86400,
});
