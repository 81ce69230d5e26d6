import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_JOB_OPTIONS,
  AUDIO_PROCESSING_QUEUE,
  type AudioJobPayload,
  audioJobId,
  TrackState,
  trackEventsKey,
  trackKeys,
} from "@edge-music/contracts";
import { artists, type Database, type Track, trackFiles, tracks } from "@edge-music/db";
import { createDb } from "@edge-music/db/node";
import { type JobsOptions, Queue } from "bullmq";
import { eq } from "drizzle-orm";
import { inject, type TestContext } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { connectRedis } from "../../src/io/redis.ts";
import { createStorage, type Storage } from "../../src/io/storage.ts";
import { trackEvents } from "../../src/io/track-events.ts";
import type { AttemptDeps } from "../../src/job/attempt.ts";
import { createProcessor } from "../../src/queue/processor.ts";
import { startQueueWorker } from "../../src/queue/worker.ts";

const infra = inject("infra");

export const unique = (prefix: string) => `${prefix}${crypto.randomUUID().slice(0, 8)}`;

/**
 * A BullMQ key prefix of one test's own: the queue keeps the contract's name, and every key of it
 * (`<prefix>:<queue>:…`) is apart from the other suites' on the shared Redis. A hash tag, like the
 * contract's prefix, so that it works on a Redis Cluster too.
 */
export const uniquePrefix = () => `{test-${crypto.randomUUID()}}`;

/** Small backoff for tests; everything else as the contract says. */
export const TEST_JOB_OPTIONS: JobsOptions = {
  ...AUDIO_PROCESSING_JOB_OPTIONS,
  backoff: { type: "fixed", delay: 50 },
};

export interface TestTrack {
  trackId: string;
  artistId: string;
  sourceKey: string;
  sourceFileName: string;
}

/**
 * The database, storage and Redis of the test run, and per test a fresh queue (the contract's,
 * under a prefix of its own) with a worker running the real processor. `close()` obliterates the
 * queues and closes everything.
 */
export function createHarness() {
  const handle = createDb(inject("appDatabaseUrl"), { wsProxy: infra.neonWsProxy });
  const db: Database = handle.db;
  const storage: Storage = createStorage(infra.s3);
  /** Where the processors publish tracks' states (and where a test reads them back). */
  const redis = connectRedis(infra.redisUrl, { blocking: false });
  const events = trackEvents(redis);

  /**
   * A fresh queue and a worker on it, removed when the test ends (pass the test context's
   * onTestFinished: the global one cannot tell concurrent tests apart).
   */
  async function startQueue(
    context: Pick<TestContext, "onTestFinished">,
    options: { config?: Record<string, string>; deps?: Partial<AttemptDeps> } = {},
  ) {
    const prefix = uniquePrefix();
    const config = loadConfig({
      REDIS_URL: infra.redisUrl,
      DATABASE_URL: inject("appDatabaseUrl"),
      ...options.config,
    });
    const queue = new Queue(AUDIO_PROCESSING_QUEUE, {
      connection: { url: infra.redisUrl },
      prefix,
    });
    const processor = createProcessor({ db, storage, events, config, ...options.deps });
    const worker = startQueueWorker(config, processor, { prefix });
    context.onTestFinished(async (): Promise<void> => {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
    });
    const enqueue = (track: TestTrack, opts: JobsOptions = {}) =>
      queue.add(AUDIO_PROCESSING_JOB_NAME, payloadOf(track), {
        ...TEST_JOB_OPTIONS,
        jobId: audioJobId(track.trackId, track.sourceFileName),
        ...opts,
      });
    /** Waits until the track's job is finished for good (completed, or failed without retry). */
    const settle = async (
      track: TestTrack,
      { jobId = audioJobId(track.trackId, track.sourceFileName), ms = 90_000 } = {},
    ) => {
      const deadline = Date.now() + ms;
      for (;;) {
        const state = await queue.getJobState(jobId);
        if (state === "completed" || state === "failed") {
          const row = await getTrack(track.trackId);
          if (!row) throw new Error(`track ${track.trackId} is gone`);
          return row;
        }
        if (Date.now() > deadline) throw new Error(`job ${jobId} still ${state} after ${ms} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    return { queue, worker, processor, enqueue, settle };
  }

  async function insertArtist() {
    const username = unique("tr_");
    const [row] = await db
      .insert(artists)
      .values({ username, email: `${username}@example.test` })
      .returning();
    if (!row) throw new Error("no artist row");
    return row;
  }

  /** An artist, a PROCESSING track and its source in storage, as the Worker leaves them. */
  async function makeTrack(file: string, options: { upload?: boolean; createdAt?: Date } = {}) {
    const artist = await insertArtist();
    const sourceFileName = basename(file);
    const trackId = crypto.randomUUID();
    const sourceKey = trackKeys(trackId).source(sourceFileName);
    await db.insert(tracks).values({
      id: trackId,
      artistId: artist.id,
      title: unique("Track "),
      processingStatus: "PROCESSING",
      sourceKey,
      sourceFileName,
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    });
    if (options.upload !== false) await putFile(sourceKey, file);
    return { trackId, artistId: artist.id, sourceKey, sourceFileName } satisfies TestTrack;
  }

  async function putFile(key: string, file: string) {
    await storage.client.send(
      new PutObjectCommand({ Bucket: infra.s3.bucket, Key: key, Body: await readFile(file) }),
    );
  }

  async function getTrack(trackId: string): Promise<Track | undefined> {
    const [row] = await db.select().from(tracks).where(eq(tracks.id, trackId));
    return row;
  }

  /** Polls the row until `ready(row)` holds. */
  async function waitForTrack(trackId: string, ready: (row: Track) => boolean, ms = 60_000) {
    const deadline = Date.now() + ms;
    for (;;) {
      const row = await getTrack(trackId);
      if (row && ready(row)) return row;
      if (Date.now() > deadline) {
        throw new Error(`track ${trackId} not as expected after ${ms} ms: ${JSON.stringify(row)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function listObjects(prefix: string) {
    const objects: Array<{ key: string; size: number }> = [];
    let token: string | undefined;
    do {
      const page = await storage.client.send(
        new ListObjectsV2Command({
          Bucket: infra.s3.bucket,
          Prefix: prefix,
          ContinuationToken: token,
        }),
      );
      for (const o of page.Contents ?? []) objects.push({ key: o.Key ?? "", size: o.Size ?? 0 });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return objects.sort((a, b) => a.key.localeCompare(b.key));
  }

  /** The states published for a track's live listeners, oldest first. */
  async function published(trackId: string): Promise<TrackState[]> {
    const entries = await redis.xrange(trackEventsKey(trackId), "-", "+");
    return entries.map(([, fields]) => TrackState.parse(JSON.parse(fields[1] ?? "")));
  }

  async function fileRows(trackId: string) {
    return await db.select().from(trackFiles).where(eq(trackFiles.trackId, trackId));
  }

  return {
    db,
    storage,
    bucket: infra.s3.bucket,
    startQueue,
    makeTrack,
    putFile,
    track: getTrack,
    waitForTrack,
    listObjects,
    fileRows,
    published,
    async close() {
      redis.disconnect();
      storage.client.destroy();
      await handle.close();
    },
  };
}

export type Harness = ReturnType<typeof createHarness>;

export const payloadOf = (track: TestTrack): AudioJobPayload => ({
  trackId: track.trackId,
  artistId: track.artistId,
  sourceKey: track.sourceKey,
  sourceFileName: track.sourceFileName,
});
