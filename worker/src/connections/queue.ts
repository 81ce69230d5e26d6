import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_JOB_OPTIONS,
  AUDIO_PROCESSING_QUEUE,
  AUDIO_PROCESSING_QUEUE_PREFIX,
  type AudioJobPayload,
  audioJobId,
} from "@edge-music/contracts";
import { Queue } from "bullmq";
import { describeError, type Logger } from "../logger.ts";
import type { RedisClient } from "./redis.ts";

/** The conversion queue over the request's own Redis connection, closed after `use`. */
async function withQueue<T>(redis: RedisClient, use: (queue: Queue) => Promise<T>): Promise<T> {
  const queue = new Queue(AUDIO_PROCESSING_QUEUE, {
    connection: redis,
    prefix: AUDIO_PROCESSING_QUEUE_PREFIX,
  });
  // Connection errors surface as the rejection of the command; the event would be unhandled noise.
  queue.on("error", () => {});
  try {
    return await use(queue);
  } finally {
    await queue.close().catch(() => {});
  }
}

/**
 * Adds the conversion job of an upload, with the contract's queue, prefix, id and options (the id
 * makes a second add of the same upload a no-op). Uses the request's own Redis connection, a
 * single server or a cluster.
 */
export async function enqueueConversion(
  redis: RedisClient,
  payload: AudioJobPayload,
): Promise<string> {
  const jobId = audioJobId(payload.trackId, payload.sourceFileName);
  await withQueue(redis, (queue) =>
    queue.add(AUDIO_PROCESSING_JOB_NAME, payload, { ...AUDIO_PROCESSING_JOB_OPTIONS, jobId }),
  );
  return jobId;
}

/**
 * Queues a track's conversion again (a retry by hand): the job of its earlier round, failed and
 * kept for its retention, is removed first, else the add would be a no-op under the same id.
 */
export async function requeueConversion(
  redis: RedisClient,
  payload: AudioJobPayload,
): Promise<string> {
  const jobId = audioJobId(payload.trackId, payload.sourceFileName);
  await withQueue(redis, async (queue) => {
    await queue.remove(jobId);
    await queue.add(AUDIO_PROCESSING_JOB_NAME, payload, { ...AUDIO_PROCESSING_JOB_OPTIONS, jobId });
  });
  return jobId;
}

/**
 * Removes the conversion jobs of deleted tracks, whatever their state (waiting, delayed, failed,
 * completed: each holds the track's ids until it expires). A job a transcoder is running is
 * locked and stays; the transcoder drops it when it finds its track gone. Answers how many went.
 */
export async function removeConversionJobs(
  redis: RedisClient,
  jobs: Array<{ trackId: string; sourceFileName: string }>,
): Promise<number> {
  if (jobs.length === 0) return 0;
  return await withQueue(redis, async (queue) => {
    const removed = await Promise.all(
      jobs.map((job) => queue.remove(audioJobId(job.trackId, job.sourceFileName))),
    );
    return removed.reduce<number>((sum, n) => sum + n, 0);
  });
}

/**
 * `removeConversionJobs` after a deletion that has happened: a failure is logged, not thrown
 * (a job left behind finds its track gone and is dropped by the transcoder).
 */
export async function discardConversionJobs(
  ctx: { redis: RedisClient; log: Logger },
  jobs: Array<{ trackId: string; sourceFileName: string | null }>,
): Promise<void> {
  const known = jobs.filter(
    (job): job is { trackId: string; sourceFileName: string } => job.sourceFileName !== null,
  );
  try {
    await removeConversionJobs(ctx.redis, known);
  } catch (error) {
    ctx.log.warn("removing the conversion jobs of deleted tracks failed", {
      trackIds: known.map((job) => job.trackId),
      ...describeError(error),
    });
  }
}
