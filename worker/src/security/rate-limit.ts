import { type Queryable, rateLimits } from "@edge-music/db";
import { inArray, lt, sql } from "drizzle-orm";
import { RateLimitedError } from "../errors/app-error.ts";

/** At most `max` hits per fixed window of `windowSeconds` for `key`. */
export interface Limit {
  key: string;
  max: number;
  windowSeconds: number;
}

/**
 * Counts one attempt against each limit, BEFORE the attempt is judged, and throws 429 (with
 * Retry-After) when one is over: attempts sent in parallel are all counted before any of them
 * is checked, so a burst cannot slip under the limit. A window that has run out starts again.
 * One atomic upsert per key.
 */
export async function hitLimits(db: Queryable, limits: Limit[], now: Date): Promise<void> {
  let retryAfter = 0;
  for (const limit of limits) {
    const windowStart = new Date(now.getTime() - limit.windowSeconds * 1000);
    const [row] = await db
      .insert(rateLimits)
      .values({ key: limit.key, windowStartedAt: now, hits: 1 })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          hits: sql`case when ${rateLimits.windowStartedAt} <= ${windowStart} then 1 else ${rateLimits.hits} + 1 end`,
          windowStartedAt: sql`case when ${rateLimits.windowStartedAt} <= ${windowStart} then ${now} else ${rateLimits.windowStartedAt} end`,
        },
      })
      .returning({ hits: rateLimits.hits, windowStartedAt: rateLimits.windowStartedAt });
    if (row && row.hits > limit.max) {
      const resetsAt = row.windowStartedAt.getTime() + limit.windowSeconds * 1000;
      retryAfter = Math.max(retryAfter, Math.ceil((resetsAt - now.getTime()) / 1000), 1);
    }
  }
  // About one hit in 100 also sweeps windows that ended a day ago, so the table stays the size
  // of the recent traffic without a scheduled job.
  if (Math.random() < 0.01) {
    const stale = new Date(now.getTime() - 24 * 60 * 60 * 1000);
    await db.delete(rateLimits).where(lt(rateLimits.windowStartedAt, stale));
  }
  if (retryAfter > 0) throw new RateLimitedError(retryAfter);
}

/** Gives back one attempt (it succeeded: only failures should use up a limit). */
export async function refundHits(db: Queryable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .update(rateLimits)
    .set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` })
    .where(inArray(rateLimits.key, keys));
}

/** Forgets the counters (a successful sign-in clears that account's failures). */
export async function clearLimits(db: Queryable, keys: string[]): Promise<void> {
  if (keys.length > 0) await db.delete(rateLimits).where(inArray(rateLimits.key, keys));
}

/** The abuse limits of the auth flows (per account and per client address). */
export const AUTH_LIMITS = {
  loginPerAccount: (kind: string, email: string): Limit => ({
    key: `login:${kind}:account:${email}`,
    max: 10,
    windowSeconds: 15 * 60,
  }),
  loginPerIp: (ip: string): Limit => ({ key: `login:ip:${ip}`, max: 50, windowSeconds: 15 * 60 }),
  codePerAccount: (kind: string, id: string): Limit => ({
    key: `2fa:${kind}:account:${id}`,
    max: 5,
    windowSeconds: 15 * 60,
  }),
  codePerIp: (ip: string): Limit => ({ key: `2fa:ip:${ip}`, max: 30, windowSeconds: 15 * 60 }),
  resetPerAccount: (kind: string, email: string): Limit => ({
    key: `reset:${kind}:account:${email}`,
    max: 3,
    windowSeconds: 60 * 60,
  }),
  resetPerIp: (ip: string): Limit => ({ key: `reset:ip:${ip}`, max: 20, windowSeconds: 60 * 60 }),
  /** Registrations and reset attempts hash a password (≈ 35 ms, 19 MiB): bounded per address. */
  hashingPerIp: (ip: string): Limit => ({ key: `hash:ip:${ip}`, max: 30, windowSeconds: 60 * 60 }),
};
