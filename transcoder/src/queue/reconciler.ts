import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_JOB_OPTIONS,
  AUDIO_PROCESSING_QUEUE,
  AUDIO_PROCESSING_QUEUE_PREFIX,
  AudioJobPayload,
  audioJobId,
} from "@edge-music/contracts";
import type { Database } from "@edge-music/db";
import { type Job, Queue } from "bullmq";
import type { Cluster, Redis } from "ioredis";
import type { Storage } from "../io/storage.ts";
import type { TrackEvents } from "../io/track-events.ts";
import { stuckTracks } from "../io/track-queries.ts";
import { type TrackStore, trackStore } from "../io/track-store.ts";
import { describeFailure } from "../job/failure.ts";
import { removeExpiredSources } from "../job/upload-retention.ts";
import { log } from "../log.ts";

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
   * FAILED_SOURCE_RETENTION_MS ago (job/upload-retention.ts).
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

/** The queue the reconciler adds lost jobs to: the contract's, over `connection`. */
export function conversionQueue(connection: Redis | Cluster): Queue {
  return new Queue(AUDIO_PROCESSING_QUEUE, { connection, prefix: AUDIO_PROCESSING_QUEUE_PREFIX });
}

/**
 * One pass over the PROCESSING tracks with a source:
 * - the job is missing (Redis lost it, or the Worker died between the insert and Queue.add): it is
 *   added again with the contract's id and options, so adding it twice is harmless;
 * - the job is in BullMQ's `failed` set: the track is marked FAILED (through the track store).
 *   BullMQ fails some jobs without calling the processor (stalled more than the allowed count: the
 *   transcoder died or lost its lock while converting), and the processor's own FAILED write can
 *   itself fail.
 */
export async function reconcileOnce(options: ReconcileOptions): Promise<ReconcileResult> {
  const { db, queue } = options;
  const cutoff = new Date(Date.now() - (options.minAgeMs ?? 120_000));
  const candidates = await stuckTracks(db, cutoff, options.batchSize ?? 500);
  const store = trackStore(db);
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
      if (await markFailed(store, options.events, job, row.trackId))
        result.failed.push(row.trackId);
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

/** FAILED with the job's reason, published; false when the track had finished meanwhile. */
async function markFailed(
  store: TrackStore,
  events: TrackEvents | undefined,
  job: Job,
  trackId: string,
): Promise<boolean> {
  const state = await store.recordQueueFailure(trackId, failedJobReason(job.failedReason));
  if (!state) return false;
  await events?.publish(trackId, state);
  log.warn("reconciler: conversion failed outside the processor", {
    trackId,
    jobId: job.id,
    attemptsMade: job.attemptsMade,
    failedReason: job.failedReason,
  });
  return true;
}

/**
 * A job in the `failed` set has no automatic retry left: BullMQ moves a failure it will retry to
 * `delayed` or `wait`, never to `failed`. That covers attempts used up (attemptsMade ≥ attempts),
 * stalled more than the allowed count and UnrecoverableError. Only a retry by hand brings it back,
 * and the attempt then sets PROCESSING again (trackStore.startAttempt).
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
