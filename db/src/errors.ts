export const UNIQUE_VIOLATION = "23505";
export const FOREIGN_KEY_VIOLATION = "23503";

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * The first value `pick` finds on `err` or its causes. drizzle wraps driver errors
 * (DrizzleQueryError), so the driver's fields may sit several levels down.
 */
function findInCauses<T>(err: unknown, pick: (error: Record<string, unknown>) => T | undefined) {
  let current: unknown = err;
  // Bounded: a cause chain can be cyclic.
  for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth++) {
    const found = pick(current as Record<string, unknown>);
    if (found !== undefined) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The Postgres SQLSTATE behind `err`, if any. Callers branch on codes only: message text
 * changes across Postgres versions and locales.
 */
export function pgErrorCode(err: unknown): string | undefined {
  // Node socket errors also carry 5-letter codes (EPIPE, EPERM) but always name a syscall.
  return findInCauses(err, ({ code, syscall }) =>
    typeof code === "string" && SQLSTATE.test(code) && syscall === undefined ? code : undefined,
  );
}

/** The DETAIL of a Postgres error, if any (what a function of ours raised it with). */
export function pgErrorDetail(err: unknown): string | undefined {
  return findInCauses(err, ({ detail }) => (typeof detail === "string" ? detail : undefined));
}

/** The constraint (or unique index) a Postgres error names, if any. */
export function pgConstraint(err: unknown): string | undefined {
  return findInCauses(err, ({ constraint }) =>
    typeof constraint === "string" ? constraint : undefined,
  );
}

/**
 * The messages of a connection that broke under a query, where there is no SQLSTATE to read:
 * workerd's sockets ("Network connection lost.") and node-postgres' client, which the Neon
 * driver is built on ("Connection terminated unexpectedly"); on the HTTP path, the driver's
 * "Error connecting to database: …" (the request did not get through) and "Server error (HTTP
 * status 5xx): …" (the endpoint could not run it). The next attempt may well work.
 */
const CONNECTION_LOST =
  /^(Network connection lost\.|Connection terminated unexpectedly)$|^Error connecting to database: |^Server error \(HTTP status 5\d\d\)/;

/** Whether `err` (or a cause of it) is a connection that broke, not a refused query. */
export function isConnectionLost(err: unknown): boolean {
  return (
    findInCauses(err, ({ message }) =>
      typeof message === "string" && CONNECTION_LOST.test(message) ? true : undefined,
    ) ?? false
  );
}
