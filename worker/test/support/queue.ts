import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_QUEUE,
  AUDIO_PROCESSING_QUEUE_PREFIX,
  audioJobId,
} from "@edge-music/contracts";
import { Queue } from "bullmq";
import { createRequestRedis } from "../../src/connections/redis.ts";
import { testBindings } from "./env.ts";

/** The conversion queue on the test stack's Redis, closed after `use`. */
export async function withConversionQueue<T>(use: (queue: Queue) => Promise<T>): Promise<T> {
  const redis = createRequestRedis(testBindings().REDIS_URL ?? "");
  const queue = new Queue(AUDIO_PROCESSING_QUEUE, {
    connection: redis,
    prefix: AUDIO_PROCESSING_QUEUE_PREFIX,
  });
  try {
    return await use(queue);
  } finally {
    await queue.close();
    await redis.quit();
  }
}

/** The conversion job of a track's upload, or undefined. */
export const conversionJob = (trackId: string, fileName: string) =>
  withConversionQueue((queue) => queue.getJob(audioJobId(trackId, fileName)));

/**
 * A conversion job waiting its turn, as the upload adds it but delayed an hour, so that no
 * transcoder sharing the stack's Redis takes it while a test looks at it.
 */
export const waitingConversionJob = (track: { id: string; artistId: string }, fileName: string) =>
  withConversionQueue((queue) =>
    queue.add(
      AUDIO_PROCESSING_JOB_NAME,
      {
        trackId: track.id,
        artistId: track.artistId,
        sourceKey: `tracks/${track.id}/source/${fileName}`,
        sourceFileName: fileName,
      },
      { jobId: audioJobId(track.id, fileName), delay: 60 * 60 * 1000 },
    ),
  );
