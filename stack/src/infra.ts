import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dbRttFromEnv } from "./latency.ts";
import { type LogFn, silent } from "./log.ts";
import { startNeonBridge } from "./neon-bridge.ts";
import { findPgbouncer, startPooler } from "./pooler.ts";
import { freePort } from "./ports.ts";
import { startEmbeddedPostgres } from "./postgres.ts";
import { startRedis } from "./redis.ts";
import type { Restartable } from "./restartable.ts";
import { createBucket, type S3Config, startS3 } from "./s3.ts";
import { startStandIns } from "./stand-ins/index.ts";

/** What the Worker, the transcoder and the tests need to reach the local infrastructure. */
export interface InfraInfo {
  databaseUrl: string;
  /**
   * The same database through PgBouncer in transaction mode, as Neon's pooled endpoint: what the
   * Worker connects to. The direct URL when pgbouncer is not installed.
   */
  pooledDatabaseUrl: string;
  /** NEON_WS_PROXY for @neondatabase/serverless: the dev bridge in front of that Postgres. */
  neonWsProxy: string;
  /**
   * NEON_HTTP_ENDPOINT (`neonConfig.fetchEndpoint` for `neon()` and drizzle's neon-http): Neon's
   * SQL-over-HTTP endpoint, served by the same bridge.
   */
  neonHttpEndpoint: string;
  /** The round-trip time the bridge adds to every exchange with the database (0: none). */
  dbRttMs: number;
  /**
   * A second bridge in front of the same Postgres, used by the round-trip tests only, so that its
   * count of round trips (`roundTripsUrl`) is theirs alone; each test file counts the queries it
   * sends to `<neonHttpEndpoint>/<scope>` at `<roundTripsUrl>/<scope>`, apart from files running
   * beside it.
   */
  countingBridge?: { neonWsProxy: string; neonHttpEndpoint: string; roundTripsUrl: string };
  redisUrl: string;
  s3: S3Config;
  /** The stand-ins for outside services: OAuth providers, the mail API, the test oracle. */
  standIns: { url: string };
}

export interface Infra extends InfraInfo {
  /** The servers this stack started itself (not those given by URL), for fault tests. */
  restartable: { postgres?: Restartable; redis?: Restartable };
  stop(): Promise<void>;
}

type Part = "postgres" | "pooler" | "bridge" | "redis" | "s3";

export interface InfraOptions {
  /** Where persistent data lives (dev). Without it everything is temporary (tests). */
  dataDir?: string;
  ports?: Partial<Record<Part | "standIns", number>>;
  /** Use this Postgres instead of starting one (DATABASE_URL). */
  databaseUrl?: string;
  /** Use this Redis instead of starting one (REDIS_URL). */
  redisUrl?: string;
  bucket?: string;
  /**
   * Use the S3-compatible store at this endpoint (the test run's) instead of starting one: `bucket`
   * is made there, and is this infrastructure's alone.
   */
  s3Endpoint?: string;
  /**
   * Round-trip time the Neon bridge adds between its clients and the database, to feel the
   * distance to production's database. Default: DEV_DB_RTT_MS, else 0.
   */
  dbRttMs?: number;
  /** Also start `countingBridge` (tests). */
  countingBridge?: boolean;
  logFor?: (part: Part | "stand-ins") => LogFn;
}

/**
 * Brings up Postgres (embedded or given), PgBouncer in front of it, the Neon bridge (WebSocket and
 * HTTP), Redis (redis-server or given), the S3-compatible store and the stand-ins for outside
 * services.
 * On any failure, whatever already started is stopped again.
 */
export async function startInfra(options: InfraOptions = {}): Promise<Infra> {
  const logFor = options.logFor ?? (() => silent);
  // Read before anything starts: a bad value fails at once, with nothing to stop.
  const dbRttMs = options.dbRttMs ?? dbRttFromEnv(process.env.DEV_DB_RTT_MS);
  const persistent = options.dataDir !== undefined;
  const root = options.dataDir ?? (await mkdtemp(join(tmpdir(), "edge-music-infra-")));
  // Postgres runs as its own system user when we are root: it must be able to enter this folder.
  if (!persistent) await chmod(root, 0o755);
  // A part on a port of its own choosing starts there or fails; on a free port it gets two more
  // ports to try: another process may bind a free port between our asking and the child's bind.
  const onPort = async <T>(
    part: keyof NonNullable<InfraOptions["ports"]>,
    start: (port: number) => Promise<T>,
  ): Promise<T> => {
    const fixed = options.ports?.[part];
    if (fixed !== undefined) return await start(fixed);
    for (let attempt = 1; ; attempt++) {
      try {
        return await start(await freePort());
      } catch (error) {
        if (attempt === 3) throw error;
        logFor(part === "standIns" ? "stand-ins" : part)(
          `could not start on a free port (${(error as Error).message}); trying another`,
        );
      }
    }
  };
  const stops: Array<() => Promise<void>> = [];
  const restartable: Infra["restartable"] = {};
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    if (!persistent) await rm(root, { recursive: true, force: true });
  };
  try {
    // allSettled, not all: when one part fails, the others must finish starting (and register
    // their stop) before stopAll runs, or they would outlive the run.
    const [databaseUrl, redisUrl, s3, standIns] = await settleAll([
      options.databaseUrl ??
        onPort("postgres", (port) =>
          startEmbeddedPostgres({
            dataDir: join(root, "postgres"),
            port,
            persistent,
            log: logFor("postgres"),
          }),
        ).then((pg) => {
          stops.push(pg.stop);
          restartable.postgres = pg;
          return pg.url;
        }),
      options.redisUrl ??
        onPort("redis", (port) =>
          startRedis({
            port,
            ...(persistent ? { dataDir: join(root, "redis") } : {}),
            log: logFor("redis"),
          }),
        ).then((redis) => {
          stops.push(redis.stop);
          restartable.redis = redis;
          return redis.url;
        }),
      options.s3Endpoint
        ? createBucket(options.s3Endpoint, options.bucket ?? "media")
        : onPort("s3", (port) =>
            startS3({
              port,
              dataDir: join(root, "s3"),
              bucket: options.bucket ?? "media",
              log: logFor("s3"),
            }),
          ).then((handle) => {
            stops.push(handle.stop);
            const { stop: _stop, ...config } = handle;
            return config;
          }),
      onPort("standIns", (port) => startStandIns({ port, log: logFor("stand-ins") })).then(
        (handle) => {
          stops.push(handle.stop);
          return { url: handle.url };
        },
      ),
    ]);
    let pooledDatabaseUrl = databaseUrl;
    // A Postgres on this machine gets a pooler of ours; one elsewhere (Neon) is used as given:
    // its own pooled endpoint is the one to give.
    const local = ["127.0.0.1", "localhost", "[::1]"].includes(new URL(databaseUrl).hostname);
    const pgbouncer = local ? await findPgbouncer() : undefined;
    if (pgbouncer) {
      const pooler = await onPort("pooler", (port) =>
        startPooler({ pgbouncer, port, target: databaseUrl, log: logFor("pooler") }),
      );
      stops.push(pooler.stop);
      pooledDatabaseUrl = pooler.url;
    } else {
      logFor("pooler")(
        local
          ? "pgbouncer is not installed (./run setup installs it): the Worker connects to Postgres directly"
          : "the Worker connects to the given DATABASE_URL as it is",
      );
    }
    const hostPort = (url: string) => {
      const { hostname, port } = new URL(url);
      return `${hostname}:${port || "5432"}`;
    };
    const startBridge = (port: number) =>
      startNeonBridge({
        port,
        allowedTargets: [hostPort(databaseUrl), hostPort(pooledDatabaseUrl)],
        rttMs: dbRttMs,
        log: logFor("bridge"),
      });
    const bridge = await onPort("bridge", startBridge);
    stops.push(bridge.stop);
    const counting = options.countingBridge ? await startBridge(await freePort()) : undefined;
    if (counting) stops.push(counting.stop);
    return {
      databaseUrl,
      pooledDatabaseUrl,
      neonWsProxy: bridge.url,
      neonHttpEndpoint: bridge.httpUrl,
      dbRttMs,
      ...(counting
        ? {
            countingBridge: {
              neonWsProxy: counting.url,
              neonHttpEndpoint: counting.httpUrl,
              roundTripsUrl: counting.statsUrl,
            },
          }
        : {}),
      redisUrl,
      s3,
      standIns,
      restartable,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Like Promise.all, but rejects only after every promise has settled (with the first reason). */
export async function settleAll<T extends readonly unknown[]>(
  promises: readonly [...{ [K in keyof T]: T[K] | Promise<T[K]> }],
): Promise<T> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
