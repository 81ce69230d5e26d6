import { type Database, tracks } from "@edge-music/db";
import { and, eq, isNotNull, lt } from "drizzle-orm";

/**
 * The reconciler's candidates: PROCESSING tracks with a source, created before `createdBefore`
 * (younger ones are left to the Worker's own Queue.add), oldest first.
 */
export async function stuckTracks(db: Database, createdBefore: Date, limit: number) {
  return await db
    .select({
      trackId: tracks.id,
      artistId: tracks.artistId,
      sourceKey: tracks.sourceKey,
      sourceFileName: tracks.sourceFileName,
    })
    .from(tracks)
    .where(
      and(
        eq(tracks.processingStatus, "PROCESSING"),
        isNotNull(tracks.sourceKey),
        isNotNull(tracks.sourceFileName),
        lt(tracks.createdAt, createdBefore),
      ),
    )
    .orderBy(tracks.createdAt)
    .limit(limit);
}

/** FAILED tracks that still keep their upload, finished before `finishedBefore`. */
export async function failedTracksWithSource(db: Database, finishedBefore: Date, limit: number) {
  return await db
    .select({ id: tracks.id, sourceKey: tracks.sourceKey })
    .from(tracks)
    .where(
      and(
        eq(tracks.processingStatus, "FAILED"),
        isNotNull(tracks.sourceKey),
        lt(tracks.processingFinishedAt, finishedBefore),
      ),
    )
    .limit(limit);
}
