import Redis from "ioredis";

/**
 * A Redis connection for one request (Workers forbid sockets that outlive a request).
 * It fails fast instead of queueing commands while Redis is away: callers map that to 503.
 */
export function createRequestRedis(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    commandTimeout: 5_000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    retryStrategy: () => null,
    // BullMQ needs this for blocking commands; harmless for the others.
    enableReadyCheck: false,
  });
}
