import { TRACK_EVENTS_FIELD, TrackState, trackEventsKey } from "@edge-music/contracts";
import { createRequestRedis, type RedisClient } from "./redis.ts";

/** One entry of a track's event stream: its id (the SSE id) and the state it carries. */
export interface TrackEvent {
  id: string;
  state: TrackState;
}

/**
 * A connection of one listener's own, for its blocking reads: a blocked XREAD holds its
 * connection, so it cannot share the request's. Commands may take the block time plus slack.
 */
export function openListenerRedis(url: string, blockMs: number): RedisClient {
  const redis = createRequestRedis(url, {
    commandTimeout: blockMs + 5_000,
    connectionName: LISTENER_CONNECTION_NAME,
  });
  // A failure reaches the caller as its command's rejection; unheard, the event is only printed.
  redis.on("error", () => {});
  return redis;
}

/** The name of listeners' connections in Redis's CLIENT LIST (counted by the tests and bench). */
export const LISTENER_CONNECTION_NAME = "edge-music-track-events";

type Entries = Array<[id: string, fields: string[]]>;

function toEvents(entries: Entries | undefined): TrackEvent[] {
  const events: TrackEvent[] = [];
  for (const [id, fields] of entries ?? []) {
    const at = fields.indexOf(TRACK_EVENTS_FIELD);
    const parsed = at >= 0 ? TrackState.safeParse(safeJson(fields[at + 1])) : undefined;
    if (parsed?.success) events.push({ id, state: parsed.data });
  }
  return events;
}

const safeJson = (text: string | undefined): unknown => {
  try {
    return JSON.parse(text ?? "");
  } catch {
    return undefined;
  }
};

/**
 * The newest entry of the track's stream, if any: its id (how far the stream has come) and the
 * state it carries (`event`, unless it is not one).
 */
export async function newestTrackEntry(
  redis: RedisClient,
  trackId: string,
): Promise<{ id: string; event: TrackEvent | undefined } | undefined> {
  const entries = (await redis.xrevrange(trackEventsKey(trackId), "+", "-", "COUNT", 1)) as Entries;
  const id = entries[0]?.[0];
  return id === undefined ? undefined : { id, event: toEvents(entries)[0] };
}

/** Whether stream entry id `a` (`<ms>-<seq>`) comes after `b`. */
export function isAfter(a: string, b: string): boolean {
  const [aMs = 0n, aSeq = 0n] = a.split("-").map(BigInt);
  const [bMs = 0n, bSeq = 0n] = b.split("-").map(BigInt);
  return aMs > bMs || (aMs === bMs && aSeq > bSeq);
}

/**
 * The states published after `after` (a stream id), waiting up to `blockMs` for the first one:
 * Redis answers as soon as one is added. Empty when none came in time.
 */
export async function nextTrackEvents(
  redis: RedisClient,
  trackId: string,
  after: string,
  blockMs: number,
): Promise<TrackEvent[]> {
  const key = trackEventsKey(trackId);
  const answer = (await redis.xread("BLOCK", blockMs, "STREAMS", key, after)) as Array<
    [key: string, entries: Entries]
  > | null;
  return toEvents(answer?.[0]?.[1]);
}
