import { type HttpDatabase, pgErrorCode, pgErrorDetail, rateLimits } from "@edge-music/db";
import { inArray, lt, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { RateLimitedError } from "../errors/app-error.ts";
import { clientNetwork, widerNetworks } from "./client-network.ts";

/** At most `max` hits per fixed window of `windowSeconds` for `key`. */
export interface Limit {
  key: string;
  max: number;
  windowSeconds: number;
  /**
   * The key computed by the statement itself, when the request does not know it yet (the code
   * limit of an account found by its email in the same round trip); `key` then names it for logs.
   */
  keySql?: SQL;
}

/** The upsert that counts one hit against `limit` (a window that has run out starts again). */
export function hitQuery(db: HttpDatabase, limit: Limit, now: Date) {
  const windowStart = new Date(now.getTime() - limit.windowSeconds * 1000);
  return db
    .insert(rateLimits)
    .values({ key: limit.keySql ?? limit.key, windowStartedAt: now, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        hits: sql`case when ${rateLimits.windowStartedAt} <= ${windowStart} then 1 else ${rateLimits.hits} + 1 end`,
        windowStartedAt: sql`case when ${rateLimits.windowStartedAt} <= ${windowStart} then ${now} else ${rateLimits.windowStartedAt} end`,
      },
    })
    .returning({ hits: rateLimits.hits, windowStartedAt: rateLimits.windowStartedAt });
}

export type Hit = Awaited<ReturnType<typeof hitQuery>>;

/** 429 (with Retry-After) when one of the counted hits is over its limit. */
export function judgeHits(limits: Limit[], hits: Hit[], now: Date): void {
  let retryAfter = 0;
  limits.forEach((limit, i) => {
    const row = hits[i]?.[0];
    if (row && row.hits > limit.max) {
      const resetsAt = row.windowStartedAt.getTime() + limit.windowSeconds * 1000;
      retryAfter = Math.max(retryAfter, Math.ceil((resetsAt - now.getTime()) / 1000), 1);
    }
  });
  if (retryAfter > 0) throw new RateLimitedError(retryAfter);
}

/**
 * Counts one attempt against each limit, BEFORE the attempt is judged, and throws 429 (with
 * Retry-After) when one is over: attempts sent in parallel are all counted before any of them
 * is checked, so a burst cannot slip under the limit. One atomic upsert per key, all in one
 * round trip; `also` joins that round trip (the statement the attempt needs next).
 */
export async function hitLimits(db: HttpDatabase, limits: Limit[], now: Date): Promise<void>;
export async function hitLimits<T extends BatchItem<"pg">>(
  db: HttpDatabase,
  limits: Limit[],
  now: Date,
  also: T,
): Promise<Awaited<T>>;
export async function hitLimits(
  db: HttpDatabase,
  limits: Limit[],
  now: Date,
  also?: BatchItem<"pg">,
): Promise<unknown> {
  const hits = limits.map((limit) => hitQuery(db, limit, now));
  // About one hit in 100 also sweeps windows that ended a day ago, so the table stays the size
  // of the recent traffic without a scheduled job.
  const sweep =
    Math.random() < 0.01
      ? [db.delete(rateLimits).where(lt(rateLimits.windowStartedAt, new Date(now.getTime() - DAY)))]
      : [];
  const queries = [...hits, ...sweep, ...(also ? [also] : [])] as unknown as [
    BatchItem<"pg">,
    ...BatchItem<"pg">[],
  ];
  const results = (await db.batch(queries)) as unknown[];
  judgeHits(limits, results.slice(0, hits.length) as Hit[], now);
  return also ? results.at(-1) : undefined;
}

const DAY = 24 * 60 * 60 * 1000;

/** SQLSTATE of `assert_within_limit` (migration 0015): a limit was over; its batch aborted. */
export const OVER_LIMIT = "ES429";

/**
 * The hit of `limit` as a statement that aborts its whole batch when the limit is over (nothing of
 * the batch is written, this hit included): for the batch that does what the attempt unlocks, so
 * an attempt that only deserves a verdict late (a code whose password was right) is counted and
 * judged in that very round trip. Of parallel attempts, only those whose hit stays within the
 * limit commit. Send the batch through `withinLimits`.
 */
export function hitOrAbortQuery(db: HttpDatabase, limit: Limit, now: Date) {
  const retryAfter = sql`ceil(extract(epoch from hit.window_started_at + make_interval(secs => ${limit.windowSeconds}) - ${now.toISOString()}::timestamptz))::int`;
  return db.execute(
    sql`with hit as (${hitQuery(db, limit, now).getSQL()}) select assert_within_limit(hit.hits, ${limit.max}, ${retryAfter}) from hit`,
  );
}

/** Sends a batch that holds `hitOrAbortQuery` statements; a limit over answers 429. */
export async function withinLimits<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (pgErrorCode(error) !== OVER_LIMIT) throw error;
    throw new RateLimitedError(Number(pgErrorDetail(error)) || 1);
  }
}

/** Gives back one attempt (it succeeded: only failures should use up a limit). */
export const refundQuery = (db: HttpDatabase, keys: string[]) =>
  db
    .update(rateLimits)
    .set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` })
    .where(inArray(rateLimits.key, keys));

/** Forgets the counters (a successful sign-in clears that account's failures). */
export const clearQuery = (db: HttpDatabase, keys: string[]) =>
  db.delete(rateLimits).where(inArray(rateLimits.key, keys));

/**
 * How many failed sign-ins one client network may make against one account in 15 minutes, by how
 * many the account has had from everywhere in that time: the more an account is guessed at from
 * many networks, the fewer tries each network gets, down to one. A network that has not failed
 * against the account (its owner's, usually) always gets its attempt judged: nobody can lock the
 * owner out, and no one network can guess for long.
 */
export function signInAllowance(accountFailures: number): number {
  if (accountFailures <= 20) return 10;
  if (accountFailures <= 100) return 3;
  return 1;
}

const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/**
 * How many failed sign-ins a wider IPv6 network may make against every account in 15 minutes:
 * its /64 networks share them (one holder may rotate through all of them).
 */
const WIDER_NETWORK_MAX = { 56: 100, 48: 200 } as const;

/**
 * The counters of one sign-in attempt (a login, or re-authentication with a password): the
 * account's failures from everywhere; this network's against the account (an IPv4 address, an
 * IPv6 /64, and for IPv6 also its /56 and /48, each with the same allowance: a holder of a /48
 * rotating through its 65,536 /64s gets no more tries than one /64); and this network's against
 * every account (50 per /64; 100 per /56 and 200 per /48). `email` may be computed by the
 * statement (the signed-in account's, by its id). Counted before the password is checked; `judge`
 * answers 429 when over; `forgive` gives a right password's attempt back (the account-wide and
 * the wider networks' counts by one only: an owner's success must not wipe what an attacker
 * spent, even from the same /48).
 */
export function signInLimits(kind: string, email: string | SQL, ip: string) {
  const network = clientNetwork(ip);
  const wider = widerNetworks(ip);
  const keyOf = (suffix: string): Pick<Limit, "key" | "keySql"> =>
    typeof email === "string"
      ? { key: `login:${kind}:account:${email}${suffix}` }
      : {
          key: `login:${kind}:account:?${suffix}`,
          keySql: sql`${`login:${kind}:account:`} || ${email} || ${suffix}`,
        };
  const window = { windowSeconds: SIGN_IN_WINDOW_SECONDS };
  const accountWide: Limit = { ...keyOf(""), max: Number.MAX_SAFE_INTEGER, ...window };
  // Against the account: the /64 (or IPv4 address) first, then the wider networks.
  const perNetwork: Limit[] = [
    { ...keyOf(`:net:${network}`), max: 10, ...window },
    ...wider.map(({ network: net }) => ({ ...keyOf(`:net:${net}`), max: 10, ...window })),
  ];
  // Against every account.
  const perIp: Limit[] = [
    AUTH_LIMITS.loginPerIp(ip),
    ...wider.map(({ prefix, network: net }) => ({
      key: `login:ip:${net}`,
      max: WIDER_NETWORK_MAX[prefix],
      ...window,
    })),
  ];
  const limits: Limit[] = [accountWide, ...perNetwork, ...perIp];
  return {
    limits,
    judge(hits: Hit[], now: Date) {
      const allowance = signInAllowance(hits[0]?.[0]?.hits ?? 0);
      judgeHits(
        [...perNetwork.map((limit) => ({ ...limit, max: allowance })), ...perIp],
        hits.slice(1),
        now,
      );
    },
    forgive(db: HttpDatabase, knownEmail: string) {
      const known = signInLimits(kind, knownEmail, ip);
      const [own, ...widerOwn] = known.perNetwork;
      return [
        refundQuery(db, [
          known.accountWide.key,
          ...widerOwn.map((limit) => limit.key),
          ...known.perIp.map((limit) => limit.key),
        ]),
        clearQuery(db, [own?.key ?? ""]),
      ] as const;
    },
    accountWide,
    perNetwork,
    perIp,
  };
}

/**
 * The abuse limits of the auth flows (per account and per client network: an IPv4 address, an
 * IPv6 /64; see client-network.ts).
 */
export const AUTH_LIMITS = {
  loginPerIp: (ip: string): Limit => ({
    key: `login:ip:${clientNetwork(ip)}`,
    max: 50,
    windowSeconds: 15 * 60,
  }),
  codePerAccount: (kind: string, id: string): Limit => ({
    key: `2fa:${kind}:account:${id}`,
    max: 5,
    windowSeconds: 15 * 60,
  }),
  codePerIp: (ip: string): Limit => ({
    key: `2fa:ip:${clientNetwork(ip)}`,
    max: 30,
    windowSeconds: 15 * 60,
  }),
  resetPerAccount: (kind: string, email: string): Limit => ({
    key: `reset:${kind}:account:${email}`,
    max: 3,
    windowSeconds: 60 * 60,
  }),
  resetPerIp: (ip: string): Limit => ({
    key: `reset:ip:${clientNetwork(ip)}`,
    max: 20,
    windowSeconds: 60 * 60,
  }),
  /** Registrations and reset attempts hash a password (≈ 35 ms, 19 MiB): bounded per address. */
  hashingPerIp: (ip: string): Limit => ({
    key: `hash:ip:${clientNetwork(ip)}`,
    max: 30,
    windowSeconds: 60 * 60,
  }),
};
