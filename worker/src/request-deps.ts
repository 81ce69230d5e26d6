import type { HttpDatabase } from "@edge-music/db";
import type { RedisClient } from "./connections/redis.ts";
import type { Env } from "./env.ts";
import type { Logger } from "./logger.ts";
import type { Principal } from "./security/principal.ts";
import type { ObjectStorage } from "./storage/index.ts";

/**
 * Everything a service may need of the request, made once per request by the request-context
 * middleware (`c.var.deps`). Services never see Hono's context: each takes the `Pick<RequestDeps,
 * …>` of what it uses, so a unit test passes only those. Connections are opened on first use and
 * closed after the response; never spread this object (that would open every connection).
 */
export interface RequestDeps {
  /**
   * Postgres over Neon's HTTP query path: one round trip per statement, or per `db.batch([…])`
   * (one transaction). Nothing to open or close. No interactive transactions.
   *
   * **The session check rides on it** (ADR 0010). On a signed-in request (a `signedIn(kind)`
   * guard, or `maybeSignedIn()` with a cookie), the first round trip made once the guard has run
   * carries `select assert_live_session(…)` first, in the same transaction: a single statement
   * becomes a batch of two, a batch gets it prepended. When the session has ended or expired, it
   * raises SQLSTATE `ES401`, which aborts everything sent with it (nothing is read or written)
   * and `errors/on-error.ts` answers 401. So: a service's first statement or batch is where an
   * ended session stops it; work outside the database that must not happen for an ended session
   * (streaming to storage, queueing a job) comes after a round trip, or calls `confirmSession`
   * first. Never query before the guard: such a round trip carries no check, and in development
   * the request answers 500 (request-context.ts).
   */
  readonly db: HttpDatabase;
  /** Redis, for the job queue (opened on first use). */
  readonly redis: RedisClient;
  /** R2 or S3, as the environment says (made on first use). */
  readonly storage: ObjectStorage;
  readonly log: Logger;
  readonly env: Env;
  /** The request's clock: one instant for everything the request decides. */
  readonly now: Date;
  /** The client address as Cloudflare reports it ("unknown" when absent). */
  readonly ip: string;
  readonly userAgent: string | undefined;
  /** Work that may finish after the response (sending mail, removing replaced objects). */
  waitUntil(promise: Promise<unknown>): void;
  /**
   * The signed-in caller. Only on routes whose guard is `signedIn(kind)`: reading it elsewhere is
   * a programming error (it throws).
   */
  readonly principal: Principal;
  /** The caller when signed in, else null: routes whose guard is `maybeSignedIn()`. */
  readonly viewer: Principal | null;
}

/**
 * `deps` with some members replaced or added (a transaction's `db`, the account kind of an auth
 * route). The other members stay the same lazy getters: nothing is opened by making it.
 */
export function overlay<D extends object, O extends object>(
  deps: D,
  values: O,
): Omit<D, keyof O> & O {
  const members = Object.entries(values).map(([key, value]) => [key, { value, enumerable: true }]);
  return Object.create(deps, Object.fromEntries(members));
}
