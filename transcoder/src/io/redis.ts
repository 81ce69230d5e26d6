import { redisConnectionOptions } from "@edge-music/contracts";
import IORedis, { Cluster } from "ioredis";

/**
 * A connection to REDIS_URL: one server (`redis[s]://`) or a Redis Cluster (`redis[s]+cluster://`,
 * a seed node), as the contract's redisConnectionOptions lays it out for the Worker too.
 * `blocking`: for a BullMQ Worker, whose blocking commands must wait for Redis instead of failing
 * after a few retries.
 */
export function connectRedis(url: string, options: { blocking: boolean }): IORedis | Cluster {
  const redis = options.blocking ? { maxRetriesPerRequest: null } : {};
  const connection = redisConnectionOptions(url, { redis });
  return connection.mode === "single"
    ? new IORedis(connection.url, connection.options)
    : new Cluster(connection.nodes, connection.options);
}
