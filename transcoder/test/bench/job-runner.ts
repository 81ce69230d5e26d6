// Figure (c) of bench/transcode.bench.ts: our whole job, run by the real processor in this
// process on its own queue, timed as an upload is: from the source put into S3 (then the track
// row and Queue.add, as the Worker does) to the moment the track is READY.
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_JOB_OPTIONS,
  AUDIO_PROCESSING_QUEUE,
  audioJobId,
  trackKeys,
} from "@edge-music/contracts";
import { artists, tracks } from "@edge-music/db";
import { createDb } from "@edge-music/db/node";
import { Queue } from "bullmq";
import { eq } from "drizzle-orm";
import { loadConfig } from "../../src/config.ts";
import { connectRedis } from "../../src/io/redis.ts";
import { createStorage, type StorageConfig } from "../../src/io/storage.ts";
import { trackEvents } from "../../src/io/track-events.ts";
import { createProcessor } from "../../src/queue/processor.ts";
import { startQueueWorker } from "../../src/queue/worker.ts";

export interface JobRunnerInfra {
  databaseUrl: string;
  neonWsProxy: string;
  redisUrl: string;
  s3: StorageConfig;
}

/** Milliseconds. */
export interface JobTimes {
  /** Upload → READY. */
  total: number;
  /** The source put into S3, the track row and Queue.add. */
  enqueue: number;
  /** Queue.add → the worker takes the job. */
  pickup: number;
}

export interface JobRunner {
  run(source: string): Promise<JobTimes>;
  close(): Promise<void>;
}

const POLL_MS = 50;
const DEADLINE_MS = 15 * 60_000;

export async function startJobRunner(infra: JobRunnerInfra): Promise<JobRunner> {
  const database = createDb(infra.databaseUrl, { wsProxy: infra.neonWsProxy });
  const storage = createStorage(infra.s3);
  // The contract's queue under a prefix of this runner's own: no other worker takes its jobs.
  const prefix = `{bench-${crypto.randomUUID()}}`;
  const config = loadConfig({
    REDIS_URL: infra.redisUrl,
    DATABASE_URL: infra.databaseUrl,
    NEON_WS_PROXY: infra.neonWsProxy,
  });
  const redis = connectRedis(infra.redisUrl, { blocking: false });
  const processor = createProcessor({
    db: database.db,
    storage,
    events: trackEvents(redis),
    config,
  });
  const worker = startQueueWorker(config, processor, { prefix });
  const queue = new Queue(AUDIO_PROCESSING_QUEUE, { connection: { url: infra.redisUrl }, prefix });
  const username = `bench_${crypto.randomUUID().slice(0, 8)}`;
  const [artist] = await database.db
    .insert(artists)
    .values({ username, email: `${username}@example.test` })
    .returning();
  if (!artist) throw new Error("no artist row");

  async function run(source: string) {
    const trackId = crypto.randomUUID();
    const sourceFileName = basename(source);
    const sourceKey = trackKeys(trackId).source(sourceFileName);
    const body = await readFile(source);
    // Date.now(), not performance.now(): the end is the processingFinishedAt the processor writes.
    const started = Date.now();
    await storage.client.send(
      new PutObjectCommand({ Bucket: storage.bucket, Key: sourceKey, Body: body }),
    );
    await database.db.insert(tracks).values({
      id: trackId,
      artistId: artist?.id ?? "",
      title: "bench",
      processingStatus: "PROCESSING",
      sourceKey,
      sourceFileName,
    });
    const jobId = audioJobId(trackId, sourceFileName);
    const payload = { trackId, artistId: artist?.id ?? "", sourceKey, sourceFileName };
    await queue.add(AUDIO_PROCESSING_JOB_NAME, payload, { ...AUDIO_PROCESSING_JOB_OPTIONS, jobId });
    const queued = Date.now();

    const finishedAt = await waitForReady(trackId);
    // The job goes on after READY (the source is removed): the next figure must not overlap it.
    while ((await queue.getJobState(jobId)) !== "completed") {
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    const job = await queue.getJob(jobId);
    return {
      total: finishedAt - started,
      enqueue: queued - started,
      // processedOn is stamped by the worker: it may read a hair before `queued`.
      pickup: Math.max(0, (job?.processedOn ?? queued) - queued),
    };
  }

  /** processingFinishedAt of the READY row: the commit's own clock, not the poll's. */
  async function waitForReady(trackId: string): Promise<number> {
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      const [row] = await database.db
        .select({
          status: tracks.processingStatus,
          finishedAt: tracks.processingFinishedAt,
          error: tracks.processingError,
        })
        .from(tracks)
        .where(eq(tracks.id, trackId));
      if (row?.status === "READY" && row.finishedAt) return row.finishedAt.getTime();
      if (row?.status === "FAILED") throw new Error(`conversion failed: ${row.error}`);
      if (Date.now() > deadline) throw new Error(`track ${trackId} not READY: ${row?.status}`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  return {
    run,
    async close() {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
      redis.disconnect();
      storage.client.destroy();
      await database.close();
    },
  };
}
