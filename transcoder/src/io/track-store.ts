import type { TrackState } from "@edge-music/contracts";
import { type Database, trackFiles, tracks } from "@edge-music/db";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Loudness } from "../media/ffmpeg/loudness.ts";
import type { OutputFile } from "./outputs.ts";

/** What a job needs to know of its track before it starts an attempt. */
export interface LoadedTrack {
  status: "PROCESSING" | "READY" | "FAILED";
  sourceKey: string | null;
}

export interface Completion {
  duration: number;
  loudness: Loudness;
  files: readonly OutputFile[];
  /** The media path of a cover taken from the source: it becomes the cover only if none is set. */
  cover?: string | undefined;
}

/** What the row says once READY: the cover it ended with (the artist's, ours or none). */
export interface Completed {
  cover: string | null;
}

/** What a write returns of the row: the state listeners are told (contracts' TrackState). */
const TRACK_STATE = {
  processingStatus: tracks.processingStatus,
  processingProgress: tracks.processingProgress,
  processingError: tracks.processingError,
  processingAttempts: tracks.processingAttempts,
};

/**
 * The transcoder's only writer of `tracks` and `track_files`: every move of a track's processing
 * state (attempt counted or given back, progress, READY, FAILED) is one guarded statement here,
 * for the conversion (job/attempt.ts, job/pipeline.ts) and the reconciler alike. Writes that
 * change the state listeners see return it (`RETURNING`), for the caller to publish (ADR 0017).
 */
export function trackStore(db: Database) {
  return {
    async load(trackId: string): Promise<LoadedTrack | undefined> {
      const [row] = await db
        .select({ status: tracks.processingStatus, sourceKey: tracks.sourceKey })
        .from(tracks)
        .where(eq(tracks.id, trackId));
      return row;
    },

    /**
     * The track's state once the attempt is counted; undefined when the track is gone (or already
     * READY: its conversion has nothing left to do).
     */
    async startAttempt(trackId: string): Promise<TrackState | undefined> {
      const rows = await db
        .update(tracks)
        .set({
          // Already PROCESSING, except when a FAILED track's job is retried by hand.
          processingStatus: "PROCESSING",
          processingAttempts: sql`${tracks.processingAttempts} + 1`,
          processingStartedAt: new Date(),
          processingFinishedAt: null,
          processingProgress: 0,
        })
        .where(and(eq(tracks.id, trackId), ne(tracks.processingStatus, "READY")))
        .returning(TRACK_STATE);
      return rows[0];
    },

    /**
     * Undoes startAttempt for a job handed back on shutdown: that attempt does not count, and the
     * conversion starts over from 0 %.
     */
    async releaseAttempt(trackId: string): Promise<TrackState | undefined> {
      const [row] = await db
        .update(tracks)
        .set({
          processingAttempts: sql`greatest(${tracks.processingAttempts} - 1, 0)`,
          processingProgress: 0,
        })
        .where(and(eq(tracks.id, trackId), eq(tracks.processingStatus, "PROCESSING")))
        .returning(TRACK_STATE);
      return row;
    },

    /** Whether the track has a cover (the artist's, given with the upload or since). */
    async hasCover(trackId: string): Promise<boolean> {
      const [row] = await db
        .select({ cover: tracks.cover })
        .from(tracks)
        .where(eq(tracks.id, trackId));
      return (row?.cover ?? null) !== null;
    },

    /** Only while PROCESSING: a late write must not undo READY's 100. */
    async setProgress(trackId: string, percent: number): Promise<TrackState | undefined> {
      const [row] = await db
        .update(tracks)
        .set({ processingProgress: percent })
        .where(and(eq(tracks.id, trackId), eq(tracks.processingStatus, "PROCESSING")))
        .returning(TRACK_STATE);
      return row;
    },

    /**
     * The file rows and READY in one transaction. Earlier rows of the track are replaced, so a
     * retry after a crash converges on the same set. A cover from the source is set in the same
     * UPDATE only where the row has none, so an artist's cover given meanwhile wins (the caller
     * compares the cover returned). Undefined when the track was deleted meanwhile.
     */
    async complete(trackId: string, completion: Completion): Promise<Completed | undefined> {
      return await db.transaction(async (tx) => {
        const [locked] = await tx
          .select({ id: tracks.id })
          .from(tracks)
          .where(eq(tracks.id, trackId))
          .for("update");
        if (!locked) return undefined;
        await tx.delete(trackFiles).where(eq(trackFiles.trackId, trackId));
        await tx.insert(trackFiles).values(
          completion.files.map((file) => ({
            trackId,
            kind: file.kind,
            bitrate: file.bitrate,
            storageKey: file.key,
            contentType: file.contentType,
            sizeBytes: file.size,
          })),
        );
        const [row] = await tx
          .update(tracks)
          .set({
            duration: completion.duration,
            processingStatus: "READY",
            processingProgress: 100,
            processingError: null,
            processingFinishedAt: new Date(),
            loudnessLufs: completion.loudness.integratedLufs,
            truePeakDbtp: completion.loudness.truePeakDbtp,
            ...(completion.cover === undefined
              ? {}
              : { cover: sql`coalesce(${tracks.cover}, ${completion.cover})` }),
          })
          .where(eq(tracks.id, trackId))
          .returning({ cover: tracks.cover });
        return row;
      });
    },

    /** After the source object is deleted; only if the track still points at that object. */
    async forgetSource(trackId: string, sourceKey: string): Promise<void> {
      await db
        .update(tracks)
        .set({ sourceKey: null })
        .where(and(eq(tracks.id, trackId), eq(tracks.sourceKey, sourceKey)));
    },

    /**
     * A failed attempt (job/attempt.ts): its reason, and FAILED when `final`, marked
     * `source_unreadable` when the file itself is at fault (`badInput`: the Worker then refuses to
     * convert it again). A READY track is never touched: its files are still served.
     */
    async recordFailure(
      trackId: string,
      reason: string,
      final: boolean,
      badInput = false,
    ): Promise<TrackState | undefined> {
      const [row] = await db
        .update(tracks)
        .set(
          final
            ? {
                processingStatus: "FAILED",
                processingError: reason,
                processingFinishedAt: new Date(),
                sourceUnreadable: badInput,
              }
            : { processingError: reason },
        )
        .where(and(eq(tracks.id, trackId), ne(tracks.processingStatus, "READY")))
        .returning(TRACK_STATE);
      return row;
    },

    /**
     * FAILED for a job the queue failed for good without the processor's own write (the
     * reconciler). Only from PROCESSING: a track that finished meanwhile (READY, FAILED, deleted)
     * is left alone.
     */
    async recordQueueFailure(trackId: string, reason: string): Promise<TrackState | undefined> {
      const [row] = await db
        .update(tracks)
        .set({
          processingStatus: "FAILED",
          processingError: reason,
          processingFinishedAt: new Date(),
        })
        .where(and(eq(tracks.id, trackId), eq(tracks.processingStatus, "PROCESSING")))
        .returning(TRACK_STATE);
      return row;
    },

    /**
     * A FAILED track's upload was deleted after its retention: the track forgets it and `note`
     * joins its processingError. Only while it still points at that object and is still FAILED
     * (a retry by hand meanwhile keeps its file); false when nothing was written.
     */
    async forgetFailedSource(trackId: string, sourceKey: string, note: string): Promise<boolean> {
      const rows = await db
        .update(tracks)
        .set({
          sourceKey: null,
          processingError: sql`trim(coalesce(${tracks.processingError}, '') || ' ' || ${note})`,
        })
        .where(
          and(
            eq(tracks.id, trackId),
            eq(tracks.sourceKey, sourceKey),
            eq(tracks.processingStatus, "FAILED"),
          ),
        )
        .returning({ id: tracks.id });
      return rows.length > 0;
    },
  };
}

export type TrackStore = ReturnType<typeof trackStore>;
