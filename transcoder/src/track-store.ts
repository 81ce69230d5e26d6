import type { TrackState as PublishedState } from "@edge-music/contracts";
import { type Database, trackFiles, tracks } from "@edge-music/db";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Loudness } from "./ffmpeg/loudness.ts";
import type { OutputFile } from "./outputs.ts";

export interface TrackState {
  status: "PROCESSING" | "READY" | "FAILED";
  sourceKey: string | null;
}

export interface Completion {
  duration: number;
  loudness: Loudness;
  files: readonly OutputFile[];
}

/** What a write returns of the row: the state listeners are told (contracts' TrackState). */
export const TRACK_STATE = {
  processingStatus: tracks.processingStatus,
  processingProgress: tracks.processingProgress,
  processingError: tracks.processingError,
  processingAttempts: tracks.processingAttempts,
};

/** The transcoder's writes to `tracks` and `track_files`. */
export function trackStore(db: Database) {
  return {
    async load(trackId: string): Promise<TrackState | undefined> {
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
    async startAttempt(trackId: string): Promise<PublishedState | undefined> {
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
    async releaseAttempt(trackId: string): Promise<PublishedState | undefined> {
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

    /** Only while PROCESSING: a late write must not undo READY's 100. */
    async setProgress(trackId: string, percent: number): Promise<PublishedState | undefined> {
      const [row] = await db
        .update(tracks)
        .set({ processingProgress: percent })
        .where(and(eq(tracks.id, trackId), eq(tracks.processingStatus, "PROCESSING")))
        .returning(TRACK_STATE);
      return row;
    },

    /**
     * The file rows and READY in one transaction. Earlier rows of the track are replaced, so a
     * retry after a crash converges on the same set. False when the track was deleted meanwhile.
     */
    async complete(trackId: string, completion: Completion): Promise<boolean> {
      return await db.transaction(async (tx) => {
        const [locked] = await tx
          .select({ id: tracks.id })
          .from(tracks)
          .where(eq(tracks.id, trackId))
          .for("update");
        if (!locked) return false;
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
        await tx
          .update(tracks)
          .set({
            duration: completion.duration,
            processingStatus: "READY",
            processingProgress: 100,
            processingError: null,
            processingFinishedAt: new Date(),
            loudnessLufs: completion.loudness.integratedLufs,
            truePeakDbtp: completion.loudness.truePeakDbtp,
          })
          .where(eq(tracks.id, trackId));
        return true;
      });
    },

    /** After the source object is deleted; only if the track still points at that object. */
    async forgetSource(trackId: string, sourceKey: string): Promise<void> {
      await db
        .update(tracks)
        .set({ sourceKey: null })
        .where(and(eq(tracks.id, trackId), eq(tracks.sourceKey, sourceKey)));
    },

    /** A READY track is never touched: its files are still served. */
    async recordFailure(
      trackId: string,
      reason: string,
      final: boolean,
    ): Promise<PublishedState | undefined> {
      const [row] = await db
        .update(tracks)
        .set(
          final
            ? {
                processingStatus: "FAILED",
                processingError: reason,
                processingFinishedAt: new Date(),
              }
            : { processingError: reason },
        )
        .where(and(eq(tracks.id, trackId), ne(tracks.processingStatus, "READY")))
        .returning(TRACK_STATE);
      return row;
    },
  };
}

export type TrackStore = ReturnType<typeof trackStore>;
