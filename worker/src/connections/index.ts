import { createDb, type Database } from "@edge-music/db";
import type { Env } from "../env.ts";
import type { Logger } from "../logger.ts";
import { describeError } from "../logger.ts";
import { createStorage, type ObjectStorage } from "../storage/index.ts";
import { createRequestRedis, type RedisClient } from "./redis.ts";

/** A request's connections: each opened on first use, all closed when the response is done. */
export interface Connections {
  db(): Database;
  redis(): RedisClient;
  storage(): ObjectStorage;
  /** Closes whatever the request opened; pass it to `waitUntil`. */
  close(): Promise<void>;
}

export function openConnections(env: Env, log: Logger): Connections {
  let database: ReturnType<typeof createDb> | undefined;
  let redis: RedisClient | undefined;
  let storage: ObjectStorage | undefined;
  return {
    db() {
      database ??= createDb(
        env.DATABASE_URL,
        env.NEON_WS_PROXY ? { wsProxy: env.NEON_WS_PROXY } : {},
      );
      return database.db;
    },
    redis() {
      redis ??= createRequestRedis(env.REDIS_URL);
      return redis;
    },
    storage() {
      storage ??= createStorage(env);
      return storage;
    },
    async close() {
      const closing: Promise<unknown>[] = [];
      if (database) closing.push(database.close());
      if (redis) {
        const connection = redis;
        closing.push(
          connection.status === "ready"
            ? connection.quit()
            : Promise.resolve(connection.disconnect()),
        );
      }
      const results = await Promise.allSettled(closing);
      for (const result of results) {
        if (result.status === "rejected")
          log.warn("closing a connection failed", describeError(result.reason));
      }
    },
  };
}
