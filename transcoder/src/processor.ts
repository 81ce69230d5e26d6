import { AudioJobPayload } from "@edge-music/contracts";
import type { Database } from "@edge-music/db";
import { type Job, UnrecoverableError } from "bullmq";
import type { Config } from "./config.ts";
import { describeFailure, isFinalFailure, isUnrecoverable } from "./failure.ts";
import { log } from "./log.ts";
import { type ConversionResult, convertTrack, removeSource } from "./pipeline.ts";
import { progressReporter } from "./progress-reporter.ts";
import type { Storage } from "./storage.ts";
import { trackStore } from "./track-store.ts";

export interface ProcessorDeps {
  db: Database;
  storage: Storage;
  config: Pick<Config, "MAX_DURATION_SECONDS" | "FFMPEG_TIMEOUT_MS">;
  /** At most one progress write per interval (default 2 s). */
  progressIntervalMs?: number;
  /** Parallel uploads (default 8). */
  uploadConcurrency?: number;
  workRoot?: string;
}

export type { ConversionResult } from "./pipeline.ts";

/**
 * The BullMQ processor for conversion jobs. It takes the job's abort signal (BullMQ passes one to
 * processors declaring three parameters), which the service fires once the shutdown timeout is
 * reached: ffmpeg is killed and the attempt fails like any other, so BullMQ retries it.
 */
export function createProcessor(deps: ProcessorDeps) {
  const store = trackStore(deps.db);
  return async function processJob(
    job: Job,
    _token?: string,
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
    if (!(await store.startAttempt(trackId))) return skip("the track no longer exists");

    const progress = progressReporter({
      intervalMs: deps.progressIntervalMs ?? 2_000,
      write: async (percent) => {
        await Promise.all([job.updateProgress(percent), store.setProgress(trackId, percent)]);
      },
    });
    try {
      return await convertTrack(payload, {
        storage: deps.storage,
        store,
        maxDurationSeconds: deps.config.MAX_DURATION_SECONDS,
        ffmpegTimeoutMs: deps.config.FFMPEG_TIMEOUT_MS,
        uploadConcurrency: deps.uploadConcurrency ?? 8,
        workRoot: deps.workRoot,
        progress,
        signal,
      });
    } catch (error) {
      const final = isFinalFailure({
        unrecoverable: isUnrecoverable(error),
        attemptsMade: job.attemptsMade,
        attempts: job.opts.attempts,
      });
      const reason = describeFailure(error);
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
        .catch((dbError: unknown) =>
          log.error("failure not recorded", { trackId, error: (dbError as Error).message }),
        );
      throw error;
    }
  };
}
