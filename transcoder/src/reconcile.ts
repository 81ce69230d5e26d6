import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_JOB_OPTIONS,
  AudioJobPayload,
  audioJobId,
  type TrackState,
} from "@edge-music/contracts";
import { type Database, tracks } from "@edge-music/db";
import type { Job, Queue } from "bullmq";
import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import { describeFailure } from "./failure.ts";
import { log } from "./log.ts";
import type { Storage } from "./storage.ts";
import type { TrackEvents } from "./track-events.ts";
import { TRACK_STATE } from "./track-store.ts";

/**
 * How long a FAILED track keeps its upload for a retry by hand (POST /tracks/{id}/retry): as long
 * as BullMQ keeps its failed job (the contract's removeOnFail age, 7 days).
 */
export const FAILED_SOURCE_RETENTION_MS = AUDIO_PROCESSING_JOB_OPTIONS.removeOnFail.age * 1000;

/** Added to a FAILED track's processingError when its upload is removed. */
export const SOURCE_REMOVED_NOTE =
  "The uploaded file was removed 7 days after the conversion failed; upload it again to convert it.";

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
  /**
   * Where uploads are kept: given, a pass also removes the uploads of tracks FAILED longer than
   * FAILED_SOURCE_RETENTION_MS ago.
   */
  storage?: Pick<Storage, "delete">;
  /** Given, a track marked FAILED is published to its live listeners. */
  events?: TrackEvents;
}

export interface ReconcileResult {
  /** Job ids added again: the track's job was missing from the queue. */
  requeued: string[];
  /** Track ids marked FAILED: BullMQ failed their job for good without our processor saying so. */
  failed: string[];
  /** Track ids whose upload was removed: FAILED for longer than the retention. */
  sourcesRemoved: string[];
}

/**
 * One pass over the PROCESSING tracks with a source:
 * - the job is missing (Redis lost it, or the Worker died between the insert and Queue.add): it is
 *   added again with the contract's id and options, so adding it twice is harmless;
 * - the job is in BullMQ's `failed` set: the track is marked FAILED. BullMQ fails some jobs
 *   without calling the processor (stalled more than the allowed count: the transcoder died or
 *   lost its lock while converting), and the processor's own FAILED write can itself fail.
 */
export async function reconcileOnce(options: ReconcileOptions): Promise<ReconcileResult> {
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

  const result: ReconcileResult = { requeued: [], failed: [], sourcesRemoved: [] };
  for (const row of candidates) {
    const payload = AudioJobPayload.safeParse(row);
    if (!payload.success) {
      log.warn("reconciler: track cannot be queued", { trackId: row.trackId });
      continue;
    }
    const jobId = audioJobId(row.trackId, payload.data.sourceFileName);
    const job = await queue.getJob(jobId);
    if (!job) {
      await queue.add(AUDIO_PROCESSING_JOB_NAME, payload.data, {
        ...AUDIO_PROCESSING_JOB_OPTIONS,
        jobId,
      });
      result.requeued.push(jobId);
    } else if (await isFailedForGood(job)) {
      const reason = failedJobReason(job.failedReason);
      const state = await markFailed(db, row.trackId, reason);
      if (state) {
        await options.events?.publish(row.trackId, state);
        result.failed.push(row.trackId);
        log.warn("reconciler: conversion failed outside the processor", {
          trackId: row.trackId,
          jobId,
          attemptsMade: job.attemptsMade,
          failedReason: job.failedReason,
        });
      }
    }
  }
  if (result.requeued.length > 0) {
    log.warn("reconciler: re-queued lost conversion jobs", { jobIds: result.requeued });
  }
  if (options.storage) {
    result.sourcesRemoved = await removeExpiredSources(db, options.storage, options.batchSize);
  }
  return result;
}

/**
 * The uploads of tracks FAILED longer than the retention: each object is deleted, then the track
 * forgets it and says so in its processingError (only if it still points at that object and is
 * still FAILED: a retry by hand meanwhile keeps its file).
 */
async function removeExpiredSources(
  db: Database,
  storage: Pick<Storage, "delete">,
  batchSize = 500,
): Promise<string[]> {
  const cutoff = new Date(Date.now() - FAILED_SOURCE_RETENTION_MS);
  const expired = await db
    .select({ id: tracks.id, sourceKey: tracks.sourceKey })
    .from(tracks)
    .where(
      and(
        eq(tracks.processingStatus, "FAILED"),
        isNotNull(tracks.sourceKey),
        lt(tracks.processingFinishedAt, cutoff),
      ),
    )
    .limit(batchSize);
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
    const rows = await db
      .update(tracks)
      .set({
        sourceKey: null,
        processingError: sql`trim(coalesce(${tracks.processingError}, '') || ' ' || ${SOURCE_REMOVED_NOTE})`,
      })
      .where(
        and(
          eq(tracks.id, track.id),
          eq(tracks.sourceKey, track.sourceKey),
          eq(tracks.processingStatus, "FAILED"),
        ),
      )
      .returning({ id: tracks.id });
    if (rows.length > 0) removed.push(track.id);
  }
  if (removed.length > 0) {
    log.info("reconciler: removed the uploads of long-failed tracks", { trackIds: removed });
  }
  return removed;
}

/**
 * A job in the `failed` set has no automatic retry left: BullMQ moves a failure it will retry to
 * `delayed` or `wait`, never to `failed`. That covers attempts used up (attemptsMade ≥ attempts),
 * stalled more than the allowed count and UnrecoverableError. Only a retry by hand brings it back,
 * and the processor then sets PROCESSING again (trackStore.startAttempt).
 */
async function isFailedForGood(job: Job): Promise<boolean> {
  return (await job.getState()) === "failed";
}

/** The stall reasons BullMQ writes itself (they name no cause the artist could act on). */
const STALLED = /stalled more than allowable limit|started more than allowable limit/;

/**
 * processingError from a failed job's failedReason, which is BullMQ's own text or our processor's
 * error message: only a readable line reaches the artist (no path, no SQL).
 */
export function failedJobReason(failedReason: string | undefined): string {
  const reason = failedReason?.trim() ?? "";
  if (STALLED.test(reason)) {
    return "The conversion was interrupted too many times (the transcoder stopped while converting).";
  }
  // drizzle's message carries the query text; the processor would have named it this way.
  if (reason.startsWith("Failed query")) {
    return "A temporary database error stopped the conversion.";
  }
  return describeFailure(new Error(reason));
}

/** One guarded write: a track that finished meanwhile (READY, FAILED, deleted) is left alone. */
async function markFailed(
  db: Database,
  trackId: string,
  reason: string,
): Promise<TrackState | undefined> {
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
