import type { Context, ExecutionContext, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { hasAccessCookie } from "../security/cookies.ts";

/**
 * How long the edge (the Workers cache of one data centre) keeps a public answer. The Cache API
 * is per location and a purge reaches one location only, so correctness rests on these short
 * lifetimes, never on purges.
 */
export interface EdgePolicy {
  /** Seconds a stored copy is answered as it is. */
  fresh: number;
  /**
   * Seconds after that during which the stale copy is still answered while a new one is fetched
   * in the background (stale-while-revalidate). fresh + stale bounds how old an answer can be.
   */
  stale: number;
  /** What browsers are told; by default they revalidate every time (ETag → 304). */
  browser?: string;
  /**
   * The answer is the same for every caller (media), so signed-in callers are answered from the
   * cache too. Otherwise a caller with an access cookie always gets fresh data from the database:
   * owners see their own writes at once, and a personalised body is never stored.
   */
  sameForEveryone?: boolean;
  /** Byte ranges are answered from a stored whole copy (206); a range on a miss is not stored. */
  ranges?: boolean;
  /**
   * False: never kept at the edge, only the caller's cache headers set (whole Opus files, which
   * an isolate would have to copy into the cache as it streams them).
   */
  store?: boolean;
}

const YEAR = 31_536_000;
const IMMUTABLE = `public, max-age=${YEAR}, immutable`;

/** The policies of the service, one per kind of public answer. */
export const EDGE = {
  /** Artist pages and lists, tracks, albums, public playlists: at most a minute old. */
  catalogue: { fresh: 15, stale: 45 },
  /** Search results: at most a minute old. */
  search: { fresh: 30, stale: 30 },
  /** HLS playlists (VOD, never change; a deleted track stops within two minutes). */
  hlsPlaylist: {
    fresh: 60,
    stale: 60,
    browser: "public, max-age=60",
    sameForEveryone: true,
    ranges: true,
  },
  /**
   * Segments, init segments and Opus files never change. The edge keeps them a day, not a year:
   * a deleted track stops streaming from every data centre within a day. Browsers keep them.
   */
  media: { fresh: 86_400, stale: 0, browser: IMMUTABLE, sameForEveryone: true, ranges: true },
  /**
   * A track's waveform: JSON written once with the media, kept like them (a day at the edge, a
   * year in browsers), but read whole: a Range header is ignored (200), so copies are whole too.
   */
  waveform: { fresh: 86_400, stale: 0, browser: IMMUTABLE, sameForEveryone: true },
  /** Whole Opus files: browsers keep them (they never change); the edge does not. */
  progressive: { fresh: 0, stale: 0, browser: IMMUTABLE, sameForEveryone: true, store: false },
} as const satisfies Record<string, EdgePolicy>;

/** `x-edge-cache` of an answer: where it came from. */
export type EdgeOutcome = "hit" | "stale" | "miss" | "bypass";

const STORED_AT = "x-edge-stored-at";
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * The cache key of a request: its path with ids in lower case and its query parameters in a fixed
 * order, so `?limit=5&page=2` and `?page=2&limit=5` share one copy. Nothing of the caller (cookies,
 * headers) is part of it; only answers that are the same for everyone are stored.
 */
export function edgeCacheKey(url: string): string {
  const parsed = new URL(url);
  const key = new URL(
    parsed.pathname.replace(UUID, (id) => id.toLowerCase()),
    parsed.origin,
  );
  const params = [...parsed.searchParams].sort(([a, x], [b, y]) =>
    a === b ? compare(x, y) : compare(a, b),
  );
  for (const [name, value] of params) key.searchParams.append(name, value);
  return key.toString();
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The sentence each cached route adds to its OpenAPI description. */
export function stalenessNote(policy: EdgePolicy): string {
  if (policy.store === false) {
    return `**Edge cache:** not kept at the edge (\`x-edge-cache: bypass\`); browsers may keep it (\`${policy.browser ?? "no-cache"}\`).`;
  }
  const bound = policy.fresh + policy.stale;
  const who = policy.sameForEveryone
    ? "every caller"
    : "callers without an access cookie (signed-in callers always get current data)";
  const stale = policy.stale
    ? `, fresh for ${policy.fresh} s, then served stale for up to ${policy.stale} s more while a new copy is fetched`
    : "";
  return `**Edge cache:** answers to ${who} may come from the edge cache and are at most ${bound} s old${stale} (\`x-edge-cache\`: hit, stale, miss or bypass).`;
}

/**
 * Spread into `createRoute` of a public GET: its guard, named like every route's (`publicRoute()`,
 * or `maybeSignedIn()` when it shows more to a signed-in caller), the route's description with its
 * staleness bound, `x-edge-cache` in the document, and the caching middleware in front of the
 * guard's. `policy` may depend on the request (one route serving playlists and segments).
 */
export function edgeCached(
  guard: {
    security: Array<Record<string, string[]>>;
    middleware?: MiddlewareHandler<AppEnv>[];
  },
  policy: EdgePolicy | ((c: Context<AppEnv>) => EdgePolicy),
  description: string,
) {
  const policies = typeof policy === "function" ? [] : [policy];
  return {
    ...guard,
    description: [description, ...policies.map(stalenessNote)].join(" "),
    "x-edge-cache":
      typeof policy === "function" ? "varies" : { fresh: policy.fresh, stale: policy.stale },
    middleware: [edgeCache(policy), ...(guard.middleware ?? [])] as [
      MiddlewareHandler<AppEnv>,
      ...MiddlewareHandler<AppEnv>[],
    ],
  };
}

// The Workers cache of this data centre (the DOM typings of `caches` lack `default`).
const edge = () => (caches as unknown as { default: Cache }).default;

/** Requests the cache itself sends to fetch a new copy in the background. */
const revalidations = new WeakSet<Request>();
/** Keys being fetched again by this isolate: one background fetch per key at a time. */
const inFlight = new Set<string>();

function edgeCache(policy: EdgePolicy | ((c: Context<AppEnv>) => EdgePolicy)) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const rules = typeof policy === "function" ? policy(c) : policy;
    if (rules.store === false) {
      await next();
      if (!isPrivate(c.res) && [200, 206, 304].includes(c.res.status)) {
        setCallerHeaders(c.res.headers, rules);
      }
      c.res.headers.set("x-edge-cache", "bypass");
      return;
    }
    if (carriesCredential(c.req.url)) {
      // A share key or a stream signature (ADR 0025, 0026): the answer may be of an item that is
      // not public, so it is never looked up, never stored, and no shared cache may keep it.
      await next();
      if (c.res.status < 400 && !isPrivate(c.res)) {
        c.res.headers.set("cache-control", "private, no-store");
      }
      c.res.headers.set("x-edge-cache", "bypass");
      return;
    }
    if (hasAccessCookie(c) && !rules.sameForEveryone) {
      await next();
      if (c.res.status === 200 && !isPrivate(c.res)) {
        c.res.headers.set("cache-control", "private, no-cache");
      }
      c.res.headers.append("vary", "Cookie");
      c.res.headers.set("x-edge-cache", "bypass");
      return;
    }
    const key = edgeCacheKey(c.req.url);
    const range = rules.ranges ? c.req.header("range") : undefined;
    const revalidating = revalidations.has(c.req.raw);
    let stored = revalidating ? undefined : await edge().match(keyRequest(key, range));
    if (stored?.status === 416) {
      // A range outside the stored file: the route answers its own 416 problem document.
      await stored.body?.cancel();
      stored = undefined;
    }
    if (stored) {
      const age = Math.max(0, (Date.now() - Number(stored.headers.get(STORED_AT))) / 1000);
      const outcome: EdgeOutcome = age >= rules.fresh ? "stale" : "hit";
      if (outcome === "stale") revalidate(c, key);
      return answer(stored, rules, outcome, Math.floor(age));
    }
    await next();
    const response = c.res;
    if (isPrivate(response)) {
      // An answer the route made for this caller alone (the owner's unfinished track): neither
      // stored nor made public. So a copy found above is always a public answer (of a READY
      // track, for media), the same for the owner as for everyone.
      response.headers.set("x-edge-cache", "bypass");
      return;
    }
    // Only a whole GET: a HEAD's answer has no body to keep.
    if (isStorable(response) && !range && c.req.method === "GET") {
      c.executionCtx.waitUntil(edge().put(keyRequest(key), copyToStore(response, rules)));
    }
    // Headers in place: Hono merges the old response's headers into any new one set as c.res.
    if ([200, 206, 304].includes(response.status)) setCallerHeaders(response.headers, rules);
    response.headers.set("x-edge-cache", "miss");
  });
}

/** Query parameters that carry a credential: an unlisted item's key, a signed stream URL's. */
const CREDENTIAL_PARAMS = ["key", "sig"];

/** Whether the URL holds a credential; such requests bypass the edge entirely. */
export function carriesCredential(url: string): boolean {
  const { searchParams } = new URL(url);
  return CREDENTIAL_PARAMS.some((name) => searchParams.has(name));
}

const keyRequest = (key: string, range?: string) =>
  new Request(key, { method: "GET", headers: range ? { range } : {} });

/** Only whole, successful answers with nothing of a caller in them. */
export function isStorable(response: Response): boolean {
  return response.status === 200 && !response.headers.has("set-cookie") && !isPrivate(response);
}

/**
 * A route's own `Cache-Control: private` or `no-store`: an answer for one caller, which no cache
 * may keep. The edge neither stores it nor replaces the header with its policy's public one.
 */
export function isPrivate(response: Response): boolean {
  return /\b(private|no-store)\b/i.test(response.headers.get("cache-control") ?? "");
}

function copyToStore(response: Response, rules: EdgePolicy): Response {
  const copy = new Response(response.clone().body, response);
  copy.headers.set("cache-control", `public, max-age=${rules.fresh + rules.stale}`);
  copy.headers.set(STORED_AT, String(Date.now()));
  return copy;
}

/** A stored answer to the caller, with the caller-facing cache headers. */
function answer(stored: Response, rules: EdgePolicy, outcome: EdgeOutcome, age: number) {
  const out = new Response(stored.body, stored);
  out.headers.delete(STORED_AT);
  out.headers.delete("cf-cache-status");
  setCallerHeaders(out.headers, rules);
  out.headers.set("age", String(age));
  out.headers.set("x-edge-cache", outcome);
  return out;
}

function setCallerHeaders(headers: Headers, rules: EdgePolicy): void {
  headers.set(
    "cache-control",
    rules.browser ??
      `public, max-age=0, s-maxage=${rules.fresh}, stale-while-revalidate=${rules.stale}`,
  );
  if (!rules.sameForEveryone) headers.append("vary", "Cookie");
}

/**
 * Lets the edge cache send a request through the whole app again (a stale copy's background
 * refresh): mounted once, in front of every route.
 */
export const edgeCacheRefetch = (app: {
  fetch: (
    request: Request,
    env: AppEnv["Bindings"],
    ctx: ExecutionContext,
  ) => Response | Promise<Response>;
}) =>
  createMiddleware<AppEnv>(async (c, next) => {
    c.set("refetch", async (request) => app.fetch(request, c.env, c.executionCtx));
    await next();
  });

/** Fetches a new copy through the whole app after the stale one has been answered. */
function revalidate(c: Context<AppEnv>, key: string): void {
  if (inFlight.has(key)) return;
  inFlight.add(key);
  const request = new Request(c.req.url, { method: "GET" });
  revalidations.add(request);
  const refetch = c.get("refetch");
  c.executionCtx.waitUntil(
    refetch(request)
      .then((response) => response.body?.cancel())
      .catch((error: unknown) => c.var.log.warn("edge revalidation failed", { key, error }))
      .finally(() => inFlight.delete(key)),
  );
}
