import {
  AUDIO_PROCESSING_QUEUE,
  AUDIO_PROCESSING_QUEUE_PREFIX,
  parseRedisUrl,
} from "@edge-music/contracts";
import { createDb } from "@edge-music/db/node";
import { loadConfig } from "./config.ts";
import { connectRedis } from "./io/redis.ts";
import { createStorage } from "./io/storage.ts";
import { trackEvents } from "./io/track-events.ts";
import { SHUTDOWN_REASON } from "./job/failure.ts";
import { log } from "./log.ts";
import { createProcessor } from "./queue/processor.ts";
import { conversionQueue, startReconciler } from "./queue/reconciler.ts";
import { startQueueWorker } from "./queue/worker.ts";

const config = loadConfig();
const database = createDb(config.DATABASE_URL, { wsProxy: config.NEON_WS_PROXY });
const storage = createStorage({
  endpoint: config.S3_ENDPOINT,
  region: config.S3_REGION,
  bucket: config.S3_BUCKET,
  accessKeyId: config.S3_ACCESS_KEY_ID,
  secretAccessKey: config.S3_SECRET_ACCESS_KEY,
  socketTimeoutMs: config.S3_SOCKET_TIMEOUT_MS,
});
// Fired as shutdown begins, before the running jobs are given their time to finish.
const stopping = new AbortController();
// The reconciler only adds jobs, and the processors publish tracks' states for their listeners:
// a plain connection (fail fast, unlike the worker's).
const queueConnection = connectRedis(config.REDIS_URL, { blocking: false });
queueConnection.on("error", (error) =>
  log.warn("queue connection error", { error: error.message }),
);
const events = trackEvents(queueConnection);
const processor = createProcessor({
  db: database.db,
  storage,
  events,
  config,
  stopping: stopping.signal,
});
const worker = startQueueWorker(config, processor);
const queue = conversionQueue(queueConnection);
const reconciler = startReconciler({
  db: database.db,
  queue,
  storage,
  events,
  intervalMs: config.RECONCILE_INTERVAL_MS,
  minAgeMs: config.RECONCILE_MIN_AGE_MS,
});

const shutdown = async (signal: string) => {
  if (stopping.signal.aborted) return;
  stopping.abort(SHUTDOWN_REASON);
  log.info("shutting down", { signal });
  await worker.close();
  await reconciler.stop();
  await queue.close().catch(() => {});
  queueConnection.disconnect();
  await database.close().catch(() => {});
  storage.client.destroy();
  log.info("stopped");
  process.exit(0);
};
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
// Announced once the signals are handled: whoever waits for this line may stop the process at once.
log.info("transcoder started", {
  queue: AUDIO_PROCESSING_QUEUE,
  prefix: AUDIO_PROCESSING_QUEUE_PREFIX,
  redis: parseRedisUrl(config.REDIS_URL).mode,
  concurrency: config.CONCURRENCY,
});
