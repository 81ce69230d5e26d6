import { AUDIO_PROCESSING_QUEUE, AUDIO_PROCESSING_QUEUE_PREFIX } from "@edge-music/contracts";
import { type Job, type Processor, Worker } from "bullmq";
import type { Config } from "../config.ts";
import { connectRedis } from "../io/redis.ts";
import { SHUTDOWN_REASON } from "../job/failure.ts";
import { log } from "../log.ts";

export interface QueueWorker {
  worker: Worker;
  /**
   * Stops taking jobs, lets the running ones finish within the timeout, hands the others back to
   * the queue (no attempt used), closes connections.
   */
  close(): Promise<void>;
}

export interface QueueWorkerOptions {
  /**
   * BullMQ's key prefix; the contract's unless given (ADR 0005). Not a setting: tests give each
   * transcoder its own (`{test-<uuid>}`) so that suites sharing one Redis never take each other's
   * jobs, as every key of a queue is `<prefix>:<queue>:…`.
   */
  prefix?: string;
}

/**
 * The BullMQ worker's lifecycle: one worker on the contract's conversion queue (under the
 * contract's prefix), its own Redis connection, a single server or a cluster
 * (`maxRetriesPerRequest: null`, as BullMQ requires for blocking commands), errors logged, and
 * its shutdown under a timeout. The processor is injected (processor.ts).
 */
export function startQueueWorker(
  config: Config,
  processor: Processor,
  { prefix = AUDIO_PROCESSING_QUEUE_PREFIX }: QueueWorkerOptions = {},
): QueueWorker {
  const connection = connectRedis(config.REDIS_URL, { blocking: true });
  const worker = new Worker(AUDIO_PROCESSING_QUEUE, processor, {
    connection,
    prefix,
    concurrency: config.CONCURRENCY,
    lockDuration: config.LOCK_DURATION_MS,
    stalledInterval: config.STALLED_INTERVAL_MS,
    autorun: true,
  });
  worker.on("error", (error) => log.error("worker error", { error: error.message }));
  worker.on("failed", (job: Job | undefined, error) =>
    log.warn("job failed", { jobId: job?.id, attempt: job?.attemptsMade, reason: error.message }),
  );
  worker.on("completed", (job) => log.info("job completed", { jobId: job.id }));
  return {
    worker,
    async close() {
      const closing = worker.close().then(() => "closed" as const);
      if ((await within(closing, config.SHUTDOWN_TIMEOUT_MS)) === "closed") {
        await connection.quit().catch(() => connection.disconnect());
        return;
      }
      // The running jobs get their abort signal: ffmpeg is killed and the processor hands each
      // job back to the queue, where this or another instance starts it again, no attempt used.
      log.warn("shutdown timeout reached; handing running jobs back", {
        timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
      });
      worker.cancelAllJobs(SHUTDOWN_REASON);
      if ((await within(closing, ABORT_GRACE_MS)) === "closed") {
        await connection.quit().catch(() => connection.disconnect());
        return;
      }
      // close() is idempotent (a forced second call returns the first, pending promise), so the
      // connections are cut instead: the running job's lock expires and the stalled-job check
      // hands it to another worker.
      log.warn("running jobs ignored the interruption; releasing them");
      await worker.disconnect();
      connection.disconnect();
    },
  };
}

/** How long interrupted jobs get to hand themselves back before the connections are cut. */
const ABORT_GRACE_MS = 2_000;

async function within<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
