import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import type { Logger } from "../../logger.ts";
import { clientIp } from "../../security/guard.ts";
import type { SessionContext } from "../../security/sessions.ts";

/** What the auth services need of a request; never Hono's Context itself. */
export interface AuthContext extends SessionContext {
  log: Logger;
  /** Work that may finish after the response (sending mail). */
  waitUntil(promise: Promise<unknown>): void;
}

export function authContext(c: Context<AppEnv>): AuthContext {
  return {
    db: c.get("services").db(),
    env: c.get("env"),
    log: c.get("log"),
    now: new Date(),
    ip: clientIp(c),
    userAgent: c.req.header("user-agent"),
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
  };
}
