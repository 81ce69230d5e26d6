import { AUDIO_PROCESSING_QUEUE_PREFIX, parseRedisUrl } from "@edge-music/contracts";
import { type Job, type Processor, Worker } from "bullmq";
import IORedis, { Cluster } from "ioredis";
import type { Config } from "./config.ts";
import { log } from "./log.ts";

export interface Transcoder {
  worker: Worker;
  /** Stops taking jobs, lets the running ones finish within the timeout, closes connections. */
  close(): Promise<void>;
}

/**
 * The BullMQ side of the transcoder: one worker on the conversion queue (under the contract's
 * prefix), its own Redis connection, a single server or a cluster (`maxRetriesPerRequest: null`,
 * as BullMQ requires for blocking commands), errors logged.
 * The processor is injected; the conversion pipeline is its own module.
 */
export function startTranscoder(config: Config, processor: Processor): Transcoder {
  const connection = connectRedis(config.REDIS_URL, { blocking: true });
  const worker = new Worker(config.QUEUE_NAME, processor, {
    connection,
    prefix: AUDIO_PROCESSING_QUEUE_PREFIX,
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

/**
 * A connection to REDIS_URL: one server (`redis[s]://`) or a Redis Cluster (`redis[s]+cluster://`,
 * a seed node; user, password and TLS apply to every node). `blocking`: for a BullMQ Worker, whose
 * blocking commands must wait for Redis instead of failing after a few retries.
 */
export function connectRedis(url: string, options: { blocking: boolean }): IORedis | Cluster {
  const retries = options.blocking ? { maxRetriesPerRequest: null } : {};
  const target = parseRedisUrl(url);
  if (target.mode === "single") return new IORedis(url, retries);
  return new Cluster([target.seed], {
    // Hostnames go to the socket as they are, so TLS checks certificates against the name
    // (managed clusters announce names, not addresses, when TLS is on).
    dnsLookup: (address, callback) => callback(null, address),
    redisOptions: {
      ...retries,
      ...(target.username ? { username: target.username } : {}),
      ...(target.password ? { password: target.password } : {}),
      ...(target.tls ? { tls: {} } : {}),
    },
  });
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
