// A track's conversion, started in one place: the form upload, the direct upload and the retry
// all commit the track PROCESSING and queue its job through here, under one policy for a queue
// that refuses the job.
import { type AudioJobPayload, publishTrackState } from "@edge-music/contracts";
import { type HttpDatabase, tracks, type Visibility } from "@edge-music/db";
import { and, eq, isNotNull } from "drizzle-orm";
import { enqueueConversion, requeueConversion } from "../../../connections/queue.ts";
import {
  ConflictError,
  NotFoundError,
  ServiceUnavailableError,
} from "../../../errors/app-error.ts";
import { describeError } from "../../../logger.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { assertOwner } from "../../../security/guard.ts";
import { findTrackQuery, ownAlbum, toOwnTrackDto } from "../catalogue/queries.ts";
import type { OwnTrackView } from "../catalogue/schema.ts";

/** What a new track is made of when its conversion starts. */
export interface NewTrack {
  id: string;
  artistId: string;
  /** Taken only when it is one of the artist's albums (else the column gets NULL). */
  albumId: string | null | undefined;
  title: string;
  /** Who may reach it (ADR 0025); public when left out. */
  visibility?: Visibility | undefined;
  cover?: string | null;
  source: { key: string; fileName: string };
}

/** The insert of a new track, PROCESSING from its source: a statement for the caller's batch. */
export function newTrackInsert(db: HttpDatabase, track: NewTrack) {
  return db.insert(tracks).values({
    id: track.id,
    artistId: track.artistId,
    albumId: ownAlbum(track.albumId, track.artistId),
    title: track.title,
    ...(track.visibility ? { visibility: track.visibility } : {}),
    cover: track.cover ?? null,
    processingStatus: "PROCESSING",
    sourceKey: track.source.key,
    sourceFileName: track.source.fileName,
  });
}

/** What a new track leaves behind when it is undone (see `removeNewTrack`). */
export interface NewTrackLeftovers {
  /** Stored objects: the source (as it streams in, for the form upload), the cover. */
  objects: string[];
  /** The track row, once inserted. */
  row: boolean;
}

/**
 * Removes what a new track that failed (its upload, or its queueing) made: the row first (then nothing points at the objects), then the
 * objects. Logged, not thrown: the request already fails with its own error. Should the row
 * survive, its objects stay too: the transcoder's reconciler re-adds the missing job later.
 */
export async function removeNewTrack(
  ctx: Pick<RequestDeps, "db" | "storage" | "log">,
  trackId: string,
  undo: NewTrackLeftovers,
) {
  if (undo.row) {
    try {
      await ctx.db.delete(tracks).where(eq(tracks.id, trackId));
    } catch (error) {
      ctx.log.error("undoing a new track: its row stays", { trackId, ...describeError(error) });
      return;
    }
  }
  if (undo.objects.length === 0) return;
  await ctx.storage.delete(undo.objects).catch((error: unknown) => {
    ctx.log.warn("undoing a new track: objects stay behind", { trackId, ...describeError(error) });
  });
}

export interface QueueOptions {
  /** A retry: the job replaces the track's earlier (failed) one, and listeners hear of it first. */
  again?: boolean;
  /** Puts the track back as it was before its conversion started (see queueConversion). */
  undo: () => Promise<void>;
}

/**
 * Queues the conversion of a track already committed PROCESSING (committed first, so the job,
 * which a transcoder may take the moment it is added, always finds its track).
 *
 * **A refused queue**: the conversion does not start and nothing stays half done. `undo` puts the
 * track back as it was (a new track is deleted with its stored files; a retried one is FAILED
 * again with its earlier record), and the request answers 503: the client sends it again. An undo
 * that fails itself is logged; the transcoder's reconciler then adds the missing job of a track
 * left PROCESSING, so no track waits for ever.
 */
export async function queueConversion(
  ctx: Pick<RequestDeps, "redis" | "log">,
  job: AudioJobPayload,
  options: QueueOptions,
): Promise<void> {
  try {
    if (options.again) {
      // Its listeners (and the next to come) learn of the new round before the job can start.
      await publishTrackState(ctx.redis, job.trackId, {
        processingStatus: "PROCESSING",
        processingProgress: 0,
        processingError: null,
        processingAttempts: 0,
      });
      await requeueConversion(ctx.redis, job);
    } else {
      await enqueueConversion(ctx.redis, job);
    }
  } catch (error) {
    await options.undo().catch((undoError: unknown) =>
      ctx.log.error("a refused conversion could not be undone", {
        trackId: job.trackId,
        ...describeError(undoError),
      }),
    );
    throw new ServiceUnavailableError("The conversion queue is unavailable; try again.", {
      cause: error,
    });
  }
}

/**
 * Queues a FAILED track's conversion again while its source is kept. One batch reads the track as
 * it was and makes it PROCESSING with a clean record (only the owner's FAILED track with a
 * source); then the job replaces the failed one (queueConversion: a refused queue puts the FAILED
 * record back and answers 503).
 */
export async function retryConversion(
  ctx: Pick<RequestDeps, "db" | "redis" | "log" | "principal">,
  id: string,
): Promise<OwnTrackView> {
  const { db } = ctx;
  const [[before], restarted, [view]] = await db.batch([
    db
      .select({
        artistId: tracks.artistId,
        status: tracks.processingStatus,
        sourceKey: tracks.sourceKey,
        sourceFileName: tracks.sourceFileName,
        error: tracks.processingError,
        unreadable: tracks.sourceUnreadable,
        attempts: tracks.processingAttempts,
        startedAt: tracks.processingStartedAt,
        finishedAt: tracks.processingFinishedAt,
      })
      .from(tracks)
      .where(eq(tracks.id, id)),
    db
      .update(tracks)
      .set({
        processingStatus: "PROCESSING",
        processingError: null,
        processingAttempts: 0,
        processingProgress: 0,
        processingStartedAt: null,
        processingFinishedAt: null,
      })
      .where(
        and(
          eq(tracks.id, id),
          eq(tracks.artistId, ctx.principal.id),
          eq(tracks.processingStatus, "FAILED"),
          eq(tracks.sourceUnreadable, false),
          isNotNull(tracks.sourceKey),
          isNotNull(tracks.sourceFileName),
        ),
      )
      .returning({ id: tracks.id }),
    findTrackQuery(db, id),
  ]);
  if (!before) throw new NotFoundError(`No track with id ${id}.`);
  assertOwner(ctx.principal, before.artistId, "track");
  if (before.status !== "FAILED") {
    throw new ConflictError(
      `Only a FAILED track is converted again; this one is ${before.status}.`,
    );
  }
  if (before.unreadable) {
    throw new ConflictError(
      `This file cannot be converted: ${before.error ?? "it could not be read as audio."} Converting it again would fail the same way; upload another file.`,
      { extensions: { sourceUnreadable: true } },
    );
  }
  if (restarted.length === 0 || !before.sourceKey || !before.sourceFileName || !view) {
    throw new ConflictError("The uploaded file is no longer kept; upload it again.");
  }
  const restore = async () => {
    await db
      .update(tracks)
      .set({
        processingStatus: "FAILED",
        processingError: before.error,
        processingAttempts: before.attempts,
        processingStartedAt: before.startedAt,
        processingFinishedAt: before.finishedAt,
      })
      .where(and(eq(tracks.id, id), eq(tracks.processingStatus, "PROCESSING")));
  };
  await queueConversion(
    ctx,
    {
      trackId: id,
      artistId: before.artistId,
      sourceKey: before.sourceKey,
      sourceFileName: before.sourceFileName,
    },
    { again: true, undo: restore },
  );
  return toOwnTrackDto(view);
}
