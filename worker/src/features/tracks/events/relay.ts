import { isFinalState, type TrackState } from "@edge-music/contracts";
import type { SSEStreamingApi } from "hono/streaming";
import type { RedisClient } from "../../../connections/redis.ts";
import { nextTrackEvents } from "../../../connections/track-events.ts";

/** The SSE event name of every state. */
export const STATUS_EVENT = "status";

/** A Redis stream entry id, as the events carry it (`<ms>-<seq>`). */
export const EVENT_ID = /^\d{1,20}-\d{1,20}$/;

export function send(stream: SSEStreamingApi, event: { id?: string; state: TrackState }) {
  return stream.writeSSE({
    event: STATUS_EVENT,
    data: JSON.stringify(event.state),
    ...(event.id ? { id: event.id } : {}),
  });
}

export interface RelayOptions {
  /** The listener's own connection, for its blocking reads. */
  redis: RedisClient;
  trackId: string;
  /** The id of the last entry sent: reading goes on after it. */
  cursor: string;
  /** A comment line after this long without a write. */
  heartbeatMs: number;
  /** The stream ends after this long; the client resumes with Last-Event-ID. */
  lifetimeMs: number;
  /** How often `stillFollowed` is asked. */
  checkMs: number;
  /** Whether the track and the session are still there (a database read). */
  stillFollowed(): Promise<boolean>;
}

/**
 * Relays the track's states from its Redis stream until one is final, the stream's lifetime is
 * over, a check finds the track or the session gone, or the listener leaves. Each blocking read
 * waits until the next of those deadlines (a heartbeat, a check, the end), so each comes on time.
 */
export async function relay(stream: SSEStreamingApi, options: RelayOptions): Promise<void> {
  const { redis, trackId, heartbeatMs, lifetimeMs, checkMs } = options;
  let cursor = options.cursor;
  const endsAt = Date.now() + lifetimeMs;
  let checkAt = Date.now() + checkMs;
  let wroteAt = Date.now();
  while (!stream.aborted) {
    if (Date.now() >= endsAt) return;
    if (Date.now() >= checkAt) {
      if (!(await options.stillFollowed())) return;
      checkAt = Date.now() + checkMs;
    }
    const heartbeatAt = wroteAt + heartbeatMs;
    // At least 1 ms: a block of 0 would wait for ever.
    const blockMs = Math.max(1, Math.min(heartbeatAt, checkAt, endsAt) - Date.now());
    const events = await nextTrackEvents(redis, trackId, cursor, blockMs);
    if (events.length === 0) {
      if (Date.now() >= heartbeatAt) {
        await stream.write(": heartbeat\n\n");
        wroteAt = Date.now();
      }
      continue;
    }
    for (const event of events) {
      await send(stream, event);
      cursor = event.id;
      if (isFinalState(event.state)) return;
    }
    wroteAt = Date.now();
  }
}
