import { z } from "zod";

/**
 * A track's conversion, as the artist watches it live (`GET /api/v1/tracks/{id}/events`). The
 * transcoder appends the track's whole state to a Redis stream after each write to its row;
 * the Worker relays the stream as Server-Sent Events, one blocking XREAD per listener, so no
 * listener polls the database. Runs in Workers and Node (no imports beyond zod).
 */
export const TrackState = z.object({
  processingStatus: z.enum(["PROCESSING", "READY", "FAILED"]),
  processingProgress: z.number().int().min(0).max(100),
  processingError: z.string().nullable(),
  processingAttempts: z.number().int().nonnegative(),
});
export type TrackState = z.infer<typeof TrackState>;

/** The Redis stream of one track's states. Its entry ids are the events' ids (`Last-Event-ID`). */
export const trackEventsKey = (trackId: string) => `track-events:${trackId}`;

/** The stream's one field: the state as JSON. */
export const TRACK_EVENTS_FIELD = "state";

/** Entries kept per track (a listener needs only the newest; a resuming one what it missed). */
export const TRACK_EVENTS_MAX_LENGTH = 100;

/** The stream expires a day after its last entry (longer than any conversion with its retries). */
export const TRACK_EVENTS_TTL_SECONDS = 86_400;

/** READY and FAILED end a conversion and its event stream. */
export const isFinalState = (state: Pick<TrackState, "processingStatus">) =>
  state.processingStatus !== "PROCESSING";

/**
 * The commands that append a state to a track's stream, for one MULTI (publishTrackState, or a
 * pipeline of many tracks): the entry, capped, and the expiry renewed.
 */
export function trackStateCommands(trackId: string, state: TrackState): string[][] {
  const key = trackEventsKey(trackId);
  return [
    [
      "xadd",
      key,
      "MAXLEN",
      "~",
      String(TRACK_EVENTS_MAX_LENGTH),
      "*",
      TRACK_EVENTS_FIELD,
      JSON.stringify(TrackState.parse(state)),
    ],
    ["expire", key, String(TRACK_EVENTS_TTL_SECONDS)],
  ];
}

/** What publishing needs of a Redis client: ioredis's single-server and cluster clients have it. */
export interface TrackStateRedis {
  multi(commands: string[][]): { exec(): Promise<Array<[Error | null, unknown]> | null> };
}

/**
 * Appends a state to the track's stream in one MULTI; throws the first command's error. The
 * transcoder publishes each state it writes, the Worker the fresh start of a retry by hand.
 */
export async function publishTrackState(
  redis: TrackStateRedis,
  trackId: string,
  state: TrackState,
): Promise<void> {
  const results = (await redis.multi(trackStateCommands(trackId, state)).exec()) ?? [];
  const failed = results.find(([error]) => error);
  if (failed?.[0]) throw failed[0];
}
