import { publishTrackState, type TrackState, trackEventsKey } from "@edge-music/contracts";
import { type EventSourceMessage, EventSourceParserStream } from "eventsource-parser/stream";
import { expect } from "vitest";
import { createRequestRedis, type RedisClient } from "../../../src/connections/redis.ts";
import { LISTENER_CONNECTION_NAME } from "../../../src/connections/track-events.ts";
import { registerAccount } from "../../support/auth.ts";
import { testBindings } from "../../support/env.ts";
import { insertTrack } from "../../support/factories.ts";

/** The test Redis, as the transcoder and the tests' own checks reach it. */
export const testRedis = (): RedisClient => createRequestRedis(testBindings().REDIS_URL ?? "");

export const processing = (progress: number, attempts = 1): TrackState => ({
  processingStatus: "PROCESSING",
  processingProgress: progress,
  processingError: null,
  processingAttempts: attempts,
});

export const READY: TrackState = {
  processingStatus: "READY",
  processingProgress: 100,
  processingError: null,
  processingAttempts: 1,
};

/** Appends a state as the transcoder does, and answers its event id. */
export async function publish(
  redis: RedisClient,
  trackId: string,
  state: TrackState,
): Promise<string> {
  await publishTrackState(redis, trackId, state);
  const [[id] = []] = await redis.xrevrange(trackEventsKey(trackId), "+", "-", "COUNT", 1);
  if (!id) throw new Error("nothing published");
  return id;
}

export type Listening = ReturnType<typeof listen>;

/** An event stream read message by message, with its heartbeats counted. */
export function listen(response: Response) {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const comments: string[] = [];
  const reader = response.body
    ?.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream({ onComment: (c) => comments.push(c.trim()) }))
    .getReader();
  if (!reader) throw new Error("no body");
  return {
    comments,
    /** The next event, or null once the stream has ended. */
    async next(): Promise<(EventSourceMessage & { state: TrackState }) | null> {
      const { value, done } = await reader.read();
      if (done) return null;
      return { ...value, state: JSON.parse(value.data) as TrackState };
    },
    close: () => reader.cancel(),
  };
}

/**
 * Whether the stream ends (the server closes it) within `ms`, events before the end skipped.
 * False when it is still open then; the caller closes it.
 */
export async function endsWithin(stream: Listening, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const open = new Promise<"open">((resolve) => {
    timer = setTimeout(() => resolve("open"), ms);
  });
  try {
    for (;;) {
      const next = await Promise.race([stream.next(), open]);
      if (next === "open") return false;
      if (next === null) return true;
    }
  } finally {
    clearTimeout(timer);
  }
}

export const eventsOf = (id: string) => `/api/v1/tracks/${id}/events`;

/** A new artist with one track still converting. */
export async function artistWithTrack(values: Parameters<typeof insertTrack>[1] = {}) {
  const artist = await registerAccount("artist");
  const track = await insertTrack(artist.id, {
    processingStatus: "PROCESSING",
    processingProgress: 0,
    processingAttempts: 1,
    ...values,
  });
  return { artist, track };
}

/**
 * Listeners' connections open on Redis (each listener holds one while it waits); with `user`,
 * only those of that Redis user.
 */
export async function listenerConnections(redis: RedisClient, user?: string): Promise<number> {
  const list = (await redis.client("LIST")) as string;
  return list
    .split("\n")
    .filter(
      (line) =>
        line.includes(` name=${LISTENER_CONNECTION_NAME} `) &&
        (user === undefined || line.includes(` user=${user} `)),
    ).length;
}

/** REDIS_URL as the Redis user `name` with `password` (the user need not exist). */
export function redisUrlAs(name: string, password: string): string {
  const url = new URL(testBindings().REDIS_URL ?? "");
  url.username = name;
  url.password = password;
  return url.toString();
}

/**
 * A Redis user of the test's own (dropped with `drop`, which closes its connections): CLIENT LIST
 * shows each connection's user, so its listeners are told apart from those of the test files
 * running beside it on the same Redis.
 */
export async function ownRedisUser(redis: RedisClient) {
  const name = `live-${crypto.randomUUID()}`;
  const password = crypto.randomUUID();
  await redis.call("ACL", "SETUSER", name, "on", `>${password}`, "~*", "&*", "+@all");
  return {
    name,
    url: redisUrlAs(name, password),
    drop: async () => {
      await redis.call("ACL", "DELUSER", name);
    },
  };
}
