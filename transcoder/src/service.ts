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
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), config.SHUTDOWN_TIMEOUT_MS);
      });
      const outcome = await Promise.race([worker.close().then(() => "closed" as const), timeout]);
      clearTimeout(timer);
      if (outcome === "timeout") {
        // close() is idempotent (a forced second call returns the first, pending promise), so the
        // connections are cut instead: the running job's lock expires and the stalled-job check
        // hands it to another worker.
        log.warn("shutdown timeout reached; releasing running jobs", {
          timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
        });
        await worker.disconnect();
        connection.disconnect();
        return;
      }
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
