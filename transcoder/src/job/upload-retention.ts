import { AUDIO_PROCESSING_JOB_OPTIONS } from "@edge-music/contracts";
import type { Database } from "@edge-music/db";
import type { Storage } from "../io/storage.ts";
import { failedTracksWithSource } from "../io/track-queries.ts";
import { trackStore } from "../io/track-store.ts";
import { log } from "../log.ts";

/**
 * How long a FAILED track keeps its upload for a retry by hand (POST /tracks/{id}/retry): as long
 * as BullMQ keeps its failed job (the contract's removeOnFail age, 7 days).
 */
export const FAILED_SOURCE_RETENTION_MS = AUDIO_PROCESSING_JOB_OPTIONS.removeOnFail.age * 1000;

/** Added to a FAILED track's processingError when its upload is removed. */
export const SOURCE_REMOVED_NOTE =
  "The uploaded file was removed 7 days after the conversion failed; upload it again to convert it.";

/**
 * The uploads of tracks FAILED longer than the retention: each object is deleted, then the track
 * forgets it and says so in its processingError (only if it still points at that object and is
 * still FAILED: a retry by hand meanwhile keeps its file). Returns the ids of those tracks.
 */
export async function removeExpiredSources(
  db: Database,
  storage: Pick<Storage, "delete">,
  batchSize = 500,
): Promise<string[]> {
  const cutoff = new Date(Date.now() - FAILED_SOURCE_RETENTION_MS);
  const expired = await failedTracksWithSource(db, cutoff, batchSize);
  const store = trackStore(db);
  const removed: string[] = [];
  for (const track of expired) {
    if (!track.sourceKey) continue;
    try {
      await storage.delete(track.sourceKey);
    } catch (error) {
      log.warn("reconciler: a failed track's upload not removed", {
        trackId: track.id,
        error: (error as Error).message,
      });
      continue;
    }
    if (await store.forgetFailedSource(track.id, track.sourceKey, SOURCE_REMOVED_NOTE)) {
      removed.push(track.id);
    }
  }
  if (removed.length > 0) {
    log.info("reconciler: removed the uploads of long-failed tracks", { trackIds: removed });
  }
  return removed;
}
