import type { Bindings, Env } from "./env.ts";
import type { Logger } from "./logger.ts";
import type { RequestDeps } from "./request-deps.ts";
import type { Principal } from "./security/principal.ts";

/** Hono's environment for every route of the service. */
export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    log: Logger;
    env: Env;
    /** What services take (`Pick<RequestDeps, …>`); see request-deps.ts. */
    deps: RequestDeps;
    /** Set by the route's guard when the caller is signed in. */
    principal: Principal | undefined;
    /** Sends a request through the whole app again (the edge cache's background refresh). */
    refetch: (request: Request) => Promise<Response>;
  };
}
