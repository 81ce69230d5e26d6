import { redisConnectionOptions } from "@edge-music/contracts";
import Redis, { Cluster, type RedisOptions } from "ioredis";

/** A single Redis or a Redis Cluster, as REDIS_URL says (`redis[s]://` or `redis[s]+cluster://`). */
export type RedisClient = Redis | Cluster;

/** Fail fast instead of queueing commands while Redis is away: callers map that to 503. */
const REQUEST_OPTIONS = {
  connectTimeout: 2_000,
  commandTimeout: 5_000,
  maxRetriesPerRequest: 1,
  enableOfflineQueue: true,
  retryStrategy: () => null,
  // BullMQ needs this for blocking commands; harmless for the others.
  enableReadyCheck: false,
} satisfies RedisOptions;

/**
 * A Redis connection for one request (Workers forbid sockets that outlive a request), with the
 * connection options the transcoder uses too (`redisConnectionOptions`: credentials, TLS, no DNS
 * lookup of our own). A cluster costs more per request than a single server: the seed node is
 * asked for the slot map (CLUSTER SLOTS) before the command goes to the node owning the queue's
 * slot. `overrides`: a listener's blocking reads need a longer command timeout.
 */
export function createRequestRedis(
  url: string,
  overrides: Pick<RedisOptions, "commandTimeout" | "connectionName"> = {},
): RedisClient {
  const connection = redisConnectionOptions(url, {
    redis: { ...REQUEST_OPTIONS, ...overrides },
    lazyConnect: true,
    cluster: {
      enableOfflineQueue: true,
      enableReadyCheck: false,
      // One attempt at the slot map, like the single-server client's one attempt at connecting.
      clusterRetryStrategy: () => null,
      slotsRefreshTimeout: 2_000,
    },
  });
  return connection.mode === "single"
    ? new Redis(connection.url, connection.options)
    : new Cluster(connection.nodes, connection.options);
}
