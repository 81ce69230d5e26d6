import { createHttpDb, type HttpDatabase } from "@edge-music/db";
import type { SQL } from "drizzle-orm";
import type { Env } from "../env.ts";
import type { Logger } from "../logger.ts";
import { describeError } from "../logger.ts";
import { createStorage, type ObjectStorage } from "../storage/index.ts";
import { createRequestRedis, type RedisClient } from "./redis.ts";

/** A request's connections: each opened on first use, all closed when the response is done. */
export interface Connections {
  /** Neon's HTTP query path: made on first use, nothing to close. */
  db(): HttpDatabase;
  redis(): RedisClient;
  storage(): ObjectStorage;
  /** Closes whatever the request opened; pass it to `waitUntil`. */
  close(): Promise<void>;
}

/**
 * A statement the request's first database round trip must carry before its own (the session
 * check): asked once, on the first round trip, whichever path that takes.
 */
export type LeadStatement = () => SQL | undefined;

export function openConnections(env: Env, log: Logger, lead: LeadStatement): Connections {
  let http: HttpDatabase | undefined;
  let redis: RedisClient | undefined;
  let storage: ObjectStorage | undefined;
  return {
    db() {
      http ??= createHttpDb(env.DATABASE_URL, {
        ...(env.NEON_HTTP_ENDPOINT ? { httpEndpoint: env.NEON_HTTP_ENDPOINT } : {}),
        lead,
      });
      return http;
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
