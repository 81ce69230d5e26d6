import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { openConnections } from "../connections/index.ts";
import { type Env, parseEnv } from "../env.ts";
import { problem, problemResponse } from "../errors/problem.ts";
import { createLogger, type Logger, type LogLevel } from "../logger.ts";
import type { RequestDeps } from "../request-deps.ts";
import { liveSessionStatement } from "../security/sessions.ts";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Request id (the caller's X-Request-Id when it is a safe token, else a new UUID) on the response
 * and every log line; typed env; the request's dependencies (`c.var.deps`), whose connections are
 * closed after the response; an access log.
 */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  const incoming = c.req.header("x-request-id");
  const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  c.set("requestId", requestId);
  const env = parseEnv(c.env);
  const log = createLogger({ requestId }, env.LOG_LEVEL as LogLevel);
  c.set("log", log);
  c.set("env", env);
  const now = new Date();
  // The session check rides on the request's first round trip once the caller is known (see
  // security/guard.ts); the database handle asks for it at each round trip until it gets it, and
  // then no more. Round trips made before that are counted: on a route that then signs the
  // caller in, they ran before its guard (a defect, see below).
  let beforeGuard = 0;
  const connections = openConnections(env, log, () => {
    const principal = c.get("principal");
    if (!principal) {
      beforeGuard++;
      return undefined;
    }
    return liveSessionStatement(principal, now);
  });
  c.set("deps", requestDeps(c, env, log, connections, now));
  try {
    await next();
    if (beforeGuard > 0 && c.get("principal")) queriedBeforeGuard(c, env, log, beforeGuard);
  } finally {
    c.header("x-request-id", requestId);
    c.executionCtx.waitUntil(connections.close());
    log.info("request", {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Date.now() - started,
    });
  }
});

/**
 * A route that signs its caller in ran database round trips before its guard: unauthenticated
 * work, and none of it carried the session check. Logged everywhere; in development (and the
 * tests) the answer becomes a 500, so the route-guard sweep fails on it.
 */
function queriedBeforeGuard(c: Context<AppEnv>, env: Env, log: Logger, roundTrips: number) {
  const message = `${c.req.method} ${c.req.path} made ${roundTrips} database round trip(s) before its guard`;
  log.error(message);
  if (env.DEPLOYMENT !== "development") return;
  c.res = problemResponse(problem("INTERNAL", message, c.get("requestId")));
}

function requestDeps(
  c: Context<AppEnv>,
  env: AppEnv["Variables"]["env"],
  log: Logger,
  connections: ReturnType<typeof openConnections>,
  now: Date,
): RequestDeps {
  return {
    get db() {
      return connections.db();
    },
    get redis() {
      return connections.redis();
    },
    get storage() {
      return connections.storage();
    },
    log,
    env,
    now,
    // Cloudflare sets it and overwrites any value a client sends.
    ip: c.req.header("cf-connecting-ip") ?? "unknown",
    userAgent: c.req.header("user-agent"),
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    get principal() {
      const principal = c.get("principal");
      if (!principal) throw new Error(`${c.req.method} ${c.req.path} has no signed-in guard`);
      return principal;
    },
    get viewer() {
      return c.get("principal") ?? null;
    },
  };
}
