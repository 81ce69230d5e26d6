import type { AudioJobPayload, TrackState } from "@edge-music/contracts";
import type { Database } from "@edge-music/db";
import type { Config } from "../config.ts";
import type { Storage } from "../io/storage.ts";
import type { TrackEvents } from "../io/track-events.ts";
import { type TrackStore, trackStore } from "../io/track-store.ts";
import { log } from "../log.ts";
import { BadInputError } from "../media/bad-input.ts";
import { classifyFailure, isFinalFailure, isShutdown } from "./failure.ts";
import { type ConversionResult, convertTrack, removeSource } from "./pipeline.ts";
import { progressReporter } from "./progress-reporter.ts";

export interface AttemptDeps {
  db: Database;
  storage: Storage;
  /** Where each state written to a track's row is published for its live listeners. */
  events: TrackEvents;
  config: Pick<Config, "MAX_DURATION_SECONDS" | "FFMPEG_TIMEOUT_MS">;
  /** At most one progress write per interval (default 2 s). */
  progressIntervalMs?: number;
  /** Parallel uploads (default 8). */
  uploadConcurrency?: number;
  workRoot?: string;
  /**
   * Fires when the transcoder begins to shut down. A transient failure from then on is handed back
   * too: a SIGTERM sent to the whole process group (an init, a terminal) stops ffmpeg as well.
   */
  stopping?: AbortSignal;
}

/** What an attempt needs of its queued job (queue/processor.ts lends it BullMQ's). */
export interface QueuedJob {
  readonly id: string | undefined;
  /** Attempts finished before this one. */
  readonly attemptsMade: number;
  /** The attempts the job has in all (one when unset). */
  readonly attempts: number | undefined;
  /** Fires when the queue worker interrupts the job (its shutdown timeout, a cancellation). */
  readonly signal?: AbortSignal;
  /** The job's own progress, beside the track's. */
  updateProgress(percent: number): Promise<unknown>;
  /** Puts the job back at the head of the queue without using up an attempt. */
  moveToWait(): Promise<unknown>;
}

/** Not a failure: the job went back to the queue on shutdown (the processor tells BullMQ so). */
export class HandedBackError extends Error {
  override name = "HandedBackError";
  constructor() {
    super("the conversion was handed back to the queue");
  }
}

/**
 * One attempt at a track's conversion: counted on the track, the pipeline run with its progress,
 * ended READY, failed or handed back. A failure is bad input (FAILED at once, with a reason the
 * artist can act on; thrown as a BadInputError) or a transient fault (rethrown as it is, to be
 * retried; FAILED when the attempts run out). When the job's signal fires for shutdown, ffmpeg is
 * killed and the job is handed back without using up an attempt (HandedBackError).
 */
export function conversionAttempt(deps: AttemptDeps) {
  const ctx: Context = {
    deps,
    store: trackStore(deps.db),
    async publish(trackId, state) {
      if (state) await deps.events.publish(trackId, state);
    },
  };
  return (payload: AudioJobPayload, job: QueuedJob) => runAttempt(ctx, payload, job);
}

interface Context {
  deps: AttemptDeps;
  store: TrackStore;
  /** Publishes a state a write returned (none when the write changed no row). */
  publish(trackId: string, state: TrackState | undefined): Promise<void>;
}

async function runAttempt(
  ctx: Context,
  payload: AudioJobPayload,
  job: QueuedJob,
): Promise<ConversionResult> {
  const { deps, store } = ctx;
  const { trackId } = payload;
  const started = await begin(ctx, payload);
  if (typeof started === "string") {
    log.info("nothing to convert", { jobId: job.id, trackId, reason: started });
    return { status: "skipped", reason: started };
  }
  const progress = progressReporter({
    intervalMs: deps.progressIntervalMs ?? 2_000,
    write: async (percent) => {
      const [, state] = await Promise.all([
        job.updateProgress(percent),
        store.setProgress(trackId, percent),
      ]);
      await ctx.publish(trackId, state);
    },
  });
  try {
    const result = await convertTrack(payload, {
      storage: deps.storage,
      store,
      maxDurationSeconds: deps.config.MAX_DURATION_SECONDS,
      ffmpegTimeoutMs: deps.config.FFMPEG_TIMEOUT_MS,
      uploadConcurrency: deps.uploadConcurrency ?? 8,
      workRoot: deps.workRoot,
      progress,
      signal: job.signal,
    });
    if (result.status === "ready") {
      await ctx.publish(trackId, {
        ...started,
        processingStatus: "READY",
        processingProgress: 100,
        processingError: null,
      });
    }
    return result;
  } catch (error) {
    return await failAttempt(ctx, job, trackId, error);
  }
}

/** The track's state once the attempt is counted, or why there is nothing to convert. */
async function begin(ctx: Context, payload: AudioJobPayload): Promise<TrackState | string> {
  const { trackId } = payload;
  const track = await ctx.store.load(trackId);
  if (!track) return "the track no longer exists";
  // The job converts the source it names; a track pointing elsewhere has a newer job.
  if (track.sourceKey !== payload.sourceKey) return "the track no longer has this source";
  if (track.status === "READY") {
    // Redelivered after the commit but before the source was removed: finish that step only.
    await removeSource({ storage: ctx.deps.storage, store: ctx.store }, trackId, payload.sourceKey);
    return "already converted";
  }
  const started = await ctx.store.startAttempt(trackId);
  if (!started) return "the track no longer exists";
  await ctx.publish(trackId, started);
  return started;
}

/**
 * Ends a failed attempt: handed back on shutdown; otherwise the reason recorded on the track
 * (FAILED when final) and the error rethrown, as a BadInputError for bad input.
 */
async function failAttempt(
  ctx: Context,
  job: QueuedJob,
  trackId: string,
  error: unknown,
): Promise<never> {
  const { permanent, reason } = classifyFailure(error);
  const stopping = isShutdown(job.signal) || (!permanent && ctx.deps.stopping?.aborted === true);
  if (stopping && (await handBack(ctx, job, trackId))) throw new HandedBackError();
  const final = isFinalFailure({
    permanent,
    attemptsMade: job.attemptsMade,
    attempts: job.attempts,
  });
  log.warn("conversion attempt failed", {
    jobId: job.id,
    trackId,
    attempt: job.attemptsMade + 1,
    final,
    reason,
    error: (error as Error).message,
  });
  await ctx.store
    .recordFailure(trackId, reason, final, permanent)
    .then((state) => ctx.publish(trackId, state))
    .catch((dbError: unknown) =>
      log.error("failure not recorded", { trackId, error: (dbError as Error).message }),
    );
  // Only bad input is never retried; the job's failure then reads as the reason.
  if (permanent && !(error instanceof BadInputError)) {
    throw new BadInputError(reason, { cause: error });
  }
  throw error;
}

/**
 * Takes back the attempt counted on the track, then puts the job back in the queue. The track is
 * written first, as another transcoder may take the job as soon as it is back. False when the
 * move failed: the job then fails as usual (or, if Redis is gone, stalls and is handed on by the
 * stalled check).
 */
async function handBack(ctx: Context, job: QueuedJob, trackId: string): Promise<boolean> {
  await ctx.store
    .releaseAttempt(trackId)
    .then((state) => ctx.publish(trackId, state))
    .catch((error: unknown) =>
      log.error("handed-back attempt not released", { trackId, error: (error as Error).message }),
    );
  try {
    await job.moveToWait();
    log.info("conversion handed back on shutdown", { jobId: job.id, trackId });
    return true;
  } catch (error) {
    log.error("job not handed back", { jobId: job.id, error: (error as Error).message });
    return false;
  }
}
