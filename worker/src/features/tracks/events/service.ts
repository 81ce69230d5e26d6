import { isFinalState, type TrackState } from "@edge-music/contracts";
import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import type { AppEnv } from "../../../app-env.ts";
import {
  latestTrackEvent,
  nextTrackEvents,
  openListenerRedis,
  type TrackEvent,
} from "../../../connections/track-events.ts";
import { NotFoundError, ServiceUnavailableError } from "../../../errors/app-error.ts";
import { describeError } from "../../../logger.ts";
import { assertOwner } from "../../../security/guard.ts";

/** The SSE event name of every state. */
export const STATUS_EVENT = "status";

/** A Redis stream entry id, as the events carry it (`<ms>-<seq>`). */
export const EVENT_ID = /^\d{1,20}-\d{1,20}$/;

/**
 * Which of two states of one track is newer, when both are PROCESSING and nothing else tells:
 * attempts only grow, and progress only grows within an attempt.
 */
const newer = (a: TrackState, b: TrackState) =>
  b.processingAttempts > a.processingAttempts ||
  (b.processingAttempts === a.processingAttempts && b.processingProgress > a.processingProgress)
    ? b
    : a;

/**
 * GET /tracks/{id}/events: the track's conversion as Server-Sent Events, for its owner. The
 * database is read once (the owner check and the state: one round trip), in parallel with the
 * newest entry of the track's Redis stream; from then on the listener waits in a blocking XREAD
 * on its own connection, which Redis answers when the transcoder appends a state. Nothing polls.
 */
export async function trackEvents(
  c: Context<AppEnv>,
  trackId: string,
  lastEventId: string | undefined,
): Promise<Response> {
  const { db, env, log, principal } = c.var.deps;
  const heartbeatMs = env.EVENTS_HEARTBEAT_SECONDS * 1000;
  const redis = openListenerRedis(env.REDIS_URL, heartbeatMs);
  const close = () => redis.disconnect();

  const latest = latestTrackEvent(redis, trackId).then(
    (event) => ({ event }),
    (error: unknown) => ({ error }),
  );
  let row: (TrackState & { artistId: string }) | undefined;
  try {
    [row] = await db
      .select({
        artistId: tracks.artistId,
        processingStatus: tracks.processingStatus,
        processingProgress: tracks.processingProgress,
        processingError: tracks.processingError,
        processingAttempts: tracks.processingAttempts,
      })
      .from(tracks)
      .where(eq(tracks.id, trackId));
    if (!row) throw new NotFoundError(`No track with id ${trackId}.`);
    assertOwner(principal, row.artistId, "track");
  } catch (error) {
    close();
    throw error;
  }
  const { artistId: _, ...stored } = row;

  // Finished: its final state, and the stream ends (a client closes on READY or FAILED).
  if (isFinalState(stored)) {
    close();
    return streamSSE(c, (stream) => send(stream, { state: stored }));
  }

  const newest = await latest;
  if ("error" in newest) {
    close();
    throw new ServiceUnavailableError("Live status is unavailable; try again.", {
      cause: newest.error,
    });
  }
  // The newest of the row and the stream; the stream's id is where reading goes on from.
  const published = newest.event;
  const first: Pick<TrackEvent, "state"> & { id?: string } = !published
    ? { state: stored }
    : isFinalState(published.state)
      ? published
      : { ...published, state: newer(stored, published.state) };

  return streamSSE(c, async (stream) => {
    stream.onAbort(close);
    try {
      // A resuming client is sent what it missed, an arriving one the current state.
      let cursor = lastEventId ?? published?.id ?? "0-0";
      if (!lastEventId) {
        await send(stream, first);
        if (isFinalState(first.state)) return;
      }
      while (!stream.aborted) {
        const events = await nextTrackEvents(redis, trackId, cursor, heartbeatMs);
        if (events.length === 0) {
          await stream.write(": heartbeat\n\n");
          continue;
        }
        for (const event of events) {
          await send(stream, event);
          cursor = event.id;
          if (isFinalState(event.state)) return;
        }
      }
    } catch (error) {
      // A listener gone is the normal end; anything else ends the stream and the client resumes.
      if (!stream.aborted)
        log.warn("track event stream ended", { trackId, ...describeError(error) });
    } finally {
      close();
    }
  });
}

function send(stream: SSEStreamingApi, event: { id?: string; state: TrackState }) {
  return stream.writeSSE({
    event: STATUS_EVENT,
    data: JSON.stringify(event.state),
    ...(event.id ? { id: event.id } : {}),
  });
}
