import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_JOB_OPTIONS,
  AUDIO_PROCESSING_QUEUE,
  AUDIO_PROCESSING_QUEUE_PREFIX,
  type AudioJobPayload,
  audioJobId,
} from "@edge-music/contracts";
import { Queue } from "bullmq";
import type { RedisClient } from "./redis.ts";

/**
 * Adds the conversion job of an upload, with the contract's queue, prefix, id and options (the id
 * makes a second add of the same upload a no-op). Uses the request's own Redis connection, a
 * single server or a cluster.
 */
export async function enqueueConversion(
  redis: RedisClient,
  payload: AudioJobPayload,
): Promise<string> {
  const queue = new Queue(AUDIO_PROCESSING_QUEUE, {
    connection: redis,
    prefix: AUDIO_PROCESSING_QUEUE_PREFIX,
  });
  // Connection errors surface as the rejection of add(); the event would be unhandled noise.
  queue.on("error", () => {});
  try {
    const jobId = audioJobId(payload.trackId, payload.sourceFileName);
    await queue.add(AUDIO_PROCESSING_JOB_NAME, payload, { ...AUDIO_PROCESSING_JOB_OPTIONS, jobId });
    return jobId;
  } finally {
    await queue.close().catch(() => {});
  }
}
