import { AudioJobPayload, type TrackState } from "@edge-music/contracts";
import type { Database } from "@edge-music/db";
import { type Job, UnrecoverableError, WaitingError } from "bullmq";
import type { Config } from "./config.ts";
import { classifyFailure, isFinalFailure, isShutdown } from "./failure.ts";
import { log } from "./log.ts";
import { type ConversionResult, convertTrack, removeSource } from "./pipeline.ts";
import { progressReporter } from "./progress-reporter.ts";
import type { Storage } from "./storage.ts";
import type { TrackEvents } from "./track-events.ts";
import { trackStore } from "./track-store.ts";

export interface ProcessorDeps {
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

export type { ConversionResult } from "./pipeline.ts";

/**
 * The BullMQ processor for conversion jobs. A failure is bad input (FAILED at once, with a reason
 * the artist can act on) or a transient fault (retried with the job's backoff; FAILED when the
 * attempts run out). It takes the job's abort signal (BullMQ passes one to processors declaring
 * three parameters), which the service fires once the shutdown timeout is reached: ffmpeg is
 * killed and the job is handed back to the queue without using up an attempt.
 */
export function createProcessor(deps: ProcessorDeps) {
  const store = trackStore(deps.db);
  /** Publishes a state a write returned (none when the write changed no row). */
  const publish = async (trackId: string, state: TrackState | undefined) => {
    if (state) await deps.events.publish(trackId, state);
  };

  /**
   * Puts an interrupted job back at the head of the queue (BullMQ's moveToWait: attemptsMade is
   * unchanged) and takes back the attempt counted on the track. The track is written first, as
   * another transcoder may take the job as soon as it is back. False when the move failed: the
   * job then fails as usual (or, if Redis is gone, stalls and is handed on by the stalled check).
   */
  async function handBack(job: Job, token: string | undefined, trackId: string) {
    await store
      .releaseAttempt(trackId)
      .then((state) => publish(trackId, state))
      .catch((error: unknown) =>
        log.error("handed-back attempt not released", { trackId, error: (error as Error).message }),
      );
    try {
      await job.moveToWait(token);
      log.info("conversion handed back on shutdown", { jobId: job.id, trackId });
      return true;
    } catch (error) {
      log.error("job not handed back", { jobId: job.id, error: (error as Error).message });
      return false;
    }
  }

  /**
   * Ends a failed attempt: handed back on shutdown; otherwise the reason recorded on the track
   * (FAILED when final) and the error rethrown for BullMQ, as an UnrecoverableError for bad input.
   */
  async function failAttempt(
    job: Job,
    { token, signal, trackId }: { token?: string; signal?: AbortSignal; trackId: string },
    error: unknown,
  ): Promise<never> {
    const { permanent, reason } = classifyFailure(error);
    const stopping = isShutdown(signal) || (!permanent && deps.stopping?.aborted === true);
    if (stopping && (await handBack(job, token, trackId))) throw new WaitingError();
    const final = isFinalFailure({
      unrecoverable: permanent,
      attemptsMade: job.attemptsMade,
      attempts: job.opts.attempts,
    });
    log.warn("conversion attempt failed", {
      jobId: job.id,
      trackId,
      attempt: job.attemptsMade + 1,
      final,
      reason,
      error: (error as Error).message,
    });
    await store
      .recordFailure(trackId, reason, final)
      .then((state) => publish(trackId, state))
      .catch((dbError: unknown) =>
        log.error("failure not recorded", { trackId, error: (dbError as Error).message }),
      );
    // BullMQ retries anything but an UnrecoverableError; its failedReason is the readable one.
    if (permanent && !(error instanceof UnrecoverableError)) throw new UnrecoverableError(reason);
    throw error;
  }

  return async function processJob(
    job: Job,
    token?: string,
    signal?: AbortSignal,
  ): Promise<ConversionResult> {
    const parsed = AudioJobPayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError("invalid conversion job payload");
    const payload = parsed.data;
    const { trackId } = payload;
    const skip = (reason: string): ConversionResult => {
      log.info("nothing to convert", { jobId: job.id, trackId, reason });
      return { status: "skipped", reason };
    };

    const track = await store.load(trackId);
    if (!track) return skip("the track no longer exists");
    // The job converts the source it names; a track pointing elsewhere has a newer job.
    if (track.sourceKey !== payload.sourceKey) return skip("the track no longer has this source");
    if (track.status === "READY") {
      // Redelivered after the commit but before the source was removed: finish that step only.
      await removeSource({ storage: deps.storage, store }, trackId, payload.sourceKey);
      return skip("already converted");
    }
    const started = await store.startAttempt(trackId);
    if (!started) return skip("the track no longer exists");
    await publish(trackId, started);

    const progress = progressReporter({
      intervalMs: deps.progressIntervalMs ?? 2_000,
      write: async (percent) => {
        const [, state] = await Promise.all([
          job.updateProgress(percent),
          store.setProgress(trackId, percent),
        ]);
        await publish(trackId, state);
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
        signal,
      });
      if (result.status === "ready") {
        await publish(trackId, {
          ...started,
          processingStatus: "READY",
          processingProgress: 100,
          processingError: null,
        });
      }
      return result;
    } catch (error) {
      return await failAttempt(job, { token, signal, trackId }, error);
    }
  };
}
