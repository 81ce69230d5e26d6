import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_JOB_OPTIONS,
  AudioJobPayload,
  audioJobId,
} from "@edge-music/contracts";
import { type Database, tracks } from "@edge-music/db";
import type { Queue } from "bullmq";
import { and, eq, isNotNull, lt } from "drizzle-orm";
import { log } from "./log.ts";

export interface ReconcileOptions {
  db: Database;
  queue: Queue;
  /**
   * Tracks younger than this are left alone: the Worker creates the row first and adds the job
   * right after (default 2 min).
   */
  minAgeMs?: number;
  /** Tracks looked at per pass (default 500); the next pass takes the rest. */
  batchSize?: number;
}

/**
 * One pass: every PROCESSING track with a source whose job is missing from the queue (Redis lost
 * it, or the Worker died between the insert and Queue.add) gets its job again, with the
 * contract's id and options, so adding it twice is harmless. Returns the job ids added.
 */
export async function reconcileOnce(options: ReconcileOptions): Promise<string[]> {
  const { db, queue } = options;
  const cutoff = new Date(Date.now() - (options.minAgeMs ?? 120_000));
  const candidates = await db
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
        lt(tracks.createdAt, cutoff),
      ),
    )
    .orderBy(tracks.createdAt)
    .limit(options.batchSize ?? 500);

  const added: string[] = [];
  for (const row of candidates) {
    const payload = AudioJobPayload.safeParse(row);
    if (!payload.success) {
      log.warn("reconciler: track cannot be queued", { trackId: row.trackId });
      continue;
    }
    const jobId = audioJobId(row.trackId, payload.data.sourceFileName);
    if (await queue.getJob(jobId)) continue;
    await queue.add(AUDIO_PROCESSING_JOB_NAME, payload.data, {
      ...AUDIO_PROCESSING_JOB_OPTIONS,
      jobId,
    });
    added.push(jobId);
  }
  if (added.length > 0) log.warn("reconciler: re-queued lost conversion jobs", { jobIds: added });
  return added;
}

export interface Reconciler {
  stop(): Promise<void>;
}

/** Runs a pass at start and then every interval; a failed pass is logged and the next one tries again. */
export function startReconciler(options: ReconcileOptions & { intervalMs: number }): Reconciler {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const pass = () => {
    running = reconcileOnce(options)
      .catch((error: unknown) =>
        log.error("reconciler pass failed", { error: (error as Error).message }),
      )
      .finally(() => {
        // The next pass is scheduled after this one ends: passes never overlap.
        if (!stopped) timer = setTimeout(pass, options.intervalMs);
      });
  };
  pass();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
