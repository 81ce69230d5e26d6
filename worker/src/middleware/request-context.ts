import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { createRequestServices } from "../connections/index.ts";
import { parseEnv } from "../env.ts";
import { createLogger, type LogLevel } from "../logger.ts";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Request id (the caller's X-Request-Id when it is a safe token, else a new UUID) on the response
 * and every log line; typed env; per-request services closed after the response; an access log.
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
  const services = createRequestServices(env, log);
  c.set("services", services);
  try {
    await next();
  } finally {
    c.header("x-request-id", requestId);
    c.executionCtx.waitUntil(services.close());
    log.info("request", {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Date.now() - started,
    });
  }
});
