import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_JOB_OPTIONS,
  AUDIO_PROCESSING_QUEUE,
  type AudioJobPayload,
  audioJobId,
} from "@edge-music/contracts";
import { Queue } from "bullmq";
import type Redis from "ioredis";

/**
 * Adds the conversion job of an upload, with the contract's id and options (the id makes a
 * second add of the same upload a no-op). Uses the request's own Redis connection.
 */
export async function enqueueConversion(redis: Redis, payload: AudioJobPayload): Promise<string> {
  const queue = new Queue(AUDIO_PROCESSING_QUEUE, { connection: redis });
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
