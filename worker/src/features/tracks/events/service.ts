import { isFinalState, type TrackState } from "@edge-music/contracts";
import { pgErrorCode, tracks } from "@edge-music/db";
import { and, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { AppEnv } from "../../../app-env.ts";
import {
  isAfter,
  newestTrackEntry,
  openListenerRedis,
  type TrackEvent,
} from "../../../connections/track-events.ts";
import {
  leaveSeat,
  leaveSeatApart,
  seatFor,
  takeSeat,
} from "../../../connections/track-listeners.ts";
import type { Env } from "../../../env.ts";
import {
  type AppError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
  ValidationError,
} from "../../../errors/app-error.ts";
import { describeError } from "../../../logger.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { assertOwner } from "../../../security/guard.ts";
import { liveSessionStatement, SESSION_ENDED } from "../../../security/sessions.ts";
import { relay, send } from "./relay.ts";

export { EVENT_ID, STATUS_EVENT } from "./relay.ts";

/**
 * Listeners at once of one track, and of one account over all its tracks; past either, 429. A
 * track is watched from the studio's list, its own page and another device or two; the studio
 * opens one stream per converting track, and an album's worth converts at once.
 */
export const LISTENER_CAPS = { perTrack: 5, perAccount: 25 } as const;

/** A seat is held this much past its stream's lifetime, for the stream's last check and write. */
const SEAT_MARGIN_MS = 10_000;

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
 * database is read once (the owner check and the state: one round trip) before anything touches
 * Redis; then one Redis round trip reads the stream's newest entry and takes the listener's seat
 * (the caps); from then on the listener waits in a blocking XREAD on its own connection, which
 * Redis answers when the transcoder appends a state, until the end of its lifetime. Every
 * EVENTS_CHECK_SECONDS one query checks that the track and the session are still there.
 */
export async function trackEvents(
  c: Context<AppEnv>,
  trackId: string,
  lastEventId: string | undefined,
): Promise<Response> {
  const { db, env, log, principal, waitUntil } = c.var.deps;
  // The owner check before anything else: a stranger's or an unknown track touches no Redis.
  const [row] = await db
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
  const { artistId: _, ...stored } = row;

  // Finished: its final state, and the stream ends (a client closes on READY or FAILED).
  if (isFinalState(stored)) return streamSSE(c, (stream) => send(stream, { state: stored }));

  const timing = {
    heartbeatMs: env.EVENTS_HEARTBEAT_SECONDS * 1000,
    lifetimeMs: env.EVENTS_LIFETIME_SECONDS * 1000,
    checkMs: env.EVENTS_CHECK_SECONDS * 1000,
  };
  const { redis, seat, newest } = await admit(env, principal.id, trackId, lastEventId, timing);

  // The newest of the row and the stream; the stream's id is where reading goes on from.
  const published = newest?.event;
  const first: Pick<TrackEvent, "state"> & { id?: string } = !published
    ? { state: stored }
    : isFinalState(published.state)
      ? published
      : { ...published, state: newer(stored, published.state) };

  // Once, on whichever way the stream ends. After an abort the listener's connection is blocked
  // in XREAD: it is dropped at once, and the seat is left over a short connection of its own.
  let left: Promise<void> | undefined;
  const leave = (aborted: boolean) =>
    (left ??= (async () => {
      try {
        if (aborted) {
          redis.disconnect();
          await leaveSeatApart(env.REDIS_URL, seat);
        } else {
          await leaveSeat(redis, seat);
        }
      } catch (error) {
        // Its score still ends it: the seat is free at the end of the stream's lifetime.
        log.warn("leaving a live status seat failed", { trackId, ...describeError(error) });
      } finally {
        redis.disconnect();
      }
    })());

  return streamSSE(c, async (stream) => {
    stream.onAbort(() => waitUntil(leave(true)));
    try {
      // A resuming client is sent what it missed, an arriving one the current state.
      if (!lastEventId) {
        await send(stream, first);
        if (isFinalState(first.state)) return;
      }
      await relay(stream, {
        redis,
        trackId,
        cursor: lastEventId ?? published?.id ?? "0-0",
        ...timing,
        stillFollowed: () => stillFollowed({ db, principal }, trackId),
      });
    } catch (error) {
      // A listener gone is the normal end; anything else ends the stream and the client resumes.
      if (!stream.aborted)
        log.warn("track event stream ended", { trackId, ...describeError(error) });
    } finally {
      await leave(stream.aborted);
    }
  });
}

/**
 * The listener's own connection, the stream's newest entry and a seat, in one Redis round trip;
 * or, with the connection closed and no seat kept, 503 (Redis unreachable), 400 (`lastEventId`
 * past the newest entry: it would wait for one that may never come) or 429 (a cap reached).
 */
async function admit(
  env: Env,
  accountId: string,
  trackId: string,
  lastEventId: string | undefined,
  timing: { heartbeatMs: number; lifetimeMs: number },
) {
  const redis = openListenerRedis(env.REDIS_URL, timing.heartbeatMs);
  const seat = seatFor(accountId, trackId);
  const [newest, taken] = await Promise.allSettled([
    newestTrackEntry(redis, trackId),
    takeSeat(redis, seat, { ...LISTENER_CAPS, holdMs: timing.lifetimeMs + SEAT_MARGIN_MS }),
  ]);
  const refuse = async (error: AppError): Promise<never> => {
    if (taken.status === "fulfilled" && taken.value === 0) {
      await leaveSeat(redis, seat).catch(() => {});
    }
    redis.disconnect();
    throw error;
  };
  if (newest.status === "rejected" || taken.status === "rejected") {
    const cause =
      newest.status === "rejected" ? newest.reason : (taken as PromiseRejectedResult).reason;
    return await refuse(
      new ServiceUnavailableError("Live status is unavailable; try again.", { cause }),
    );
  }
  if (lastEventId && (!newest.value || isAfter(lastEventId, newest.value.id))) {
    return await refuse(
      new ValidationError(
        [{ path: "header.last-event-id", message: "is past the newest event of this stream" }],
        "Last-Event-ID is not an event of this stream.",
      ),
    );
  }
  if (taken.value > 0) return await refuse(new RateLimitedError(taken.value));
  return { redis, seat, newest: newest.value };
}

/**
 * Whether the stream may go on: the track is still the caller's and the caller's session live.
 * One statement (one round trip), the session check the same as a request's first round trip.
 * A check that fails otherwise (the database unreachable) throws, which ends the stream too: the
 * reconnection's own owner check then decides.
 */
async function stillFollowed(
  { db, principal }: Pick<RequestDeps, "db" | "principal">,
  trackId: string,
): Promise<boolean> {
  try {
    const rows = await db
      .select({ live: sql`(${liveSessionStatement(principal, new Date())})` })
      .from(tracks)
      .where(and(eq(tracks.id, trackId), eq(tracks.artistId, principal.id)));
    return rows.length > 0;
  } catch (error) {
    if (pgErrorCode(error) === SESSION_ENDED) return false;
    throw error;
  }
}
