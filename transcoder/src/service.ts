import { type Job, type Processor, Worker } from "bullmq";
import IORedis from "ioredis";
import type { Config } from "./config.ts";
import { log } from "./log.ts";

export interface Transcoder {
  worker: Worker;
  /** Stops taking jobs, lets the running ones finish within the timeout, closes connections. */
  close(): Promise<void>;
}

/**
 * The BullMQ side of the transcoder: one worker on the conversion queue, its own Redis connection
 * (`maxRetriesPerRequest: null`, as BullMQ requires for blocking commands), errors logged.
 * The processor is injected; the conversion pipeline is its own module.
 */
export function startTranscoder(config: Config, processor: Processor): Transcoder {
  const connection = new IORedis(config.REDIS_URL, { maxRetriesPerRequest: null });
  const worker = new Worker(config.QUEUE_NAME, processor, {
    connection,
    concurrency: config.CONCURRENCY,
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
      // The running jobs get their abort signal: ffmpeg is killed and each attempt fails like
      // any other, so BullMQ records it and retries later (on this or another instance).
      log.warn("shutdown timeout reached; interrupting running jobs", {
        timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
      });
      worker.cancelAllJobs("the transcoder is shutting down");
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

/** How long interrupted jobs get to record their failure before the connections are cut. */
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
