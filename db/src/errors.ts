export const UNIQUE_VIOLATION = "23505";
export const FOREIGN_KEY_VIOLATION = "23503";

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * The Postgres SQLSTATE behind `err`, if any. drizzle wraps driver errors (DrizzleQueryError),
 * so the code may sit on `err.cause`, possibly several levels down. Callers branch on codes
 * only: message text changes across Postgres versions and locales.
 */
export function pgErrorCode(err: unknown): string | undefined {
  let current: unknown = err;
  // Bounded: a cause chain can be cyclic.
  for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth++) {
    const { code, syscall } = current as { code?: unknown; syscall?: unknown };
    // Node socket errors also carry 5-letter codes (EPIPE, EPERM) but always name a syscall.
    if (typeof code === "string" && SQLSTATE.test(code) && syscall === undefined) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
