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
  return createRequestRedis(url, {
    commandTimeout: blockMs + 5_000,
    connectionName: LISTENER_CONNECTION_NAME,
  });
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

/** The newest state published for the track, if any. */
export async function latestTrackEvent(
  redis: RedisClient,
  trackId: string,
): Promise<TrackEvent | undefined> {
  const entries = (await redis.xrevrange(trackEventsKey(trackId), "+", "-", "COUNT", 1)) as Entries;
  return toEvents(entries)[0];
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
