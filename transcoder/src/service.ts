import {
  AUDIO_PROCESSING_QUEUE,
  AUDIO_PROCESSING_QUEUE_PREFIX,
  redisConnectionOptions,
} from "@edge-music/contracts";
import { type Job, type Processor, Worker } from "bullmq";
import IORedis, { Cluster } from "ioredis";
import type { Config } from "./config.ts";
import { SHUTDOWN_REASON } from "./failure.ts";
import { log } from "./log.ts";

export interface Transcoder {
  worker: Worker;
  /**
   * Stops taking jobs, lets the running ones finish within the timeout, hands the others back to
   * the queue (no attempt used), closes connections.
   */
  close(): Promise<void>;
}

export interface TranscoderOptions {
  /**
   * BullMQ's key prefix; the contract's unless given (ADR 0005). Not a setting: tests give each
   * transcoder its own (`{test-<uuid>}`) so that suites sharing one Redis never take each other's
   * jobs, as every key of a queue is `<prefix>:<queue>:…`.
   */
  prefix?: string;
}

/**
 * The BullMQ side of the transcoder: one worker on the contract's conversion queue (under the
 * contract's prefix), its own Redis connection, a single server or a cluster
 * (`maxRetriesPerRequest: null`, as BullMQ requires for blocking commands), errors logged.
 * The processor is injected; the conversion pipeline is its own module.
 */
export function startTranscoder(
  config: Config,
  processor: Processor,
  { prefix = AUDIO_PROCESSING_QUEUE_PREFIX }: TranscoderOptions = {},
): Transcoder {
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

/**
 * A connection to REDIS_URL: one server (`redis[s]://`) or a Redis Cluster (`redis[s]+cluster://`,
 * a seed node), as the contract's redisConnectionOptions lays it out for the Worker too.
 * `blocking`: for a BullMQ Worker, whose blocking commands must wait for Redis instead of failing
 * after a few retries.
 */
export function connectRedis(url: string, options: { blocking: boolean }): IORedis | Cluster {
  const redis = options.blocking ? { maxRetriesPerRequest: null } : {};
  const connection = redisConnectionOptions(url, { redis });
  return connection.mode === "single"
    ? new IORedis(connection.url, connection.options)
    : new Cluster(connection.nodes, connection.options);
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
