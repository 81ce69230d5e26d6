import { parseRedisUrl } from "@edge-music/contracts";
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
 * A Redis connection for one request (Workers forbid sockets that outlive a request).
 * A cluster costs more per request than a single server: the seed node is asked for the slot
 * map (CLUSTER SLOTS) before the command goes to the node owning the queue's slot.
 */
export function createRequestRedis(url: string): RedisClient {
  const target = parseRedisUrl(url);
  if (target.mode === "single") return new Redis(url, { ...REQUEST_OPTIONS, lazyConnect: true });
  return new Cluster([target.seed], {
    lazyConnect: true,
    enableOfflineQueue: true,
    enableReadyCheck: false,
    // One attempt at the slot map, like the single-server client's one attempt at connecting.
    clusterRetryStrategy: () => null,
    slotsRefreshTimeout: 2_000,
    // Hostnames go to the socket as they are: TLS then checks the certificate against the name,
    // and no node:dns lookup is needed (the Workers runtime resolves names itself).
    dnsLookup: (address, callback) => callback(null, address),
    redisOptions: {
      ...REQUEST_OPTIONS,
      ...(target.username ? { username: target.username } : {}),
      ...(target.password ? { password: target.password } : {}),
      ...(target.tls ? { tls: {} } : {}),
    },
  });
}
