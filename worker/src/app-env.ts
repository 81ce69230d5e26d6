import type { Services } from "./connections/index.ts";
import type { Bindings, Env } from "./env.ts";
import type { Logger } from "./logger.ts";
import type { Principal } from "./security/guard.ts";

/** Hono's environment for every route of the service. */
export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    log: Logger;
    env: Env;
    services: Services;
    /** Set by the auth guards on protected routes only. */
    principal: Principal;
  };
}
