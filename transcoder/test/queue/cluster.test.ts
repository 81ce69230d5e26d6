// The queue on a Redis Cluster: jobs added by the Worker's own code path (createRequestRedis +
// enqueueConversion, plain ioredis and BullMQ) are converted by the transcoder's worker with the
// real processor. The cluster (3 masters) is private to this file, so the contract's queue and
// prefix are used as they are.
import { join } from "node:path";
import { AUDIO_PROCESSING_QUEUE, AUDIO_PROCESSING_QUEUE_PREFIX } from "@edge-music/contracts";
import { type RedisClusterHandle, startRedisCluster } from "@edge-music/stack";
import { Queue } from "bullmq";
import type { Cluster } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { enqueueConversion } from "../../../worker/src/connections/queue.ts";
import { createRequestRedis } from "../../../worker/src/connections/redis.ts";
import { loadConfig } from "../../src/config.ts";
import { connectRedis } from "../../src/io/redis.ts";
import { trackEvents } from "../../src/io/track-events.ts";
import { createProcessor } from "../../src/queue/processor.ts";
import { startQueueWorker } from "../../src/queue/worker.ts";
import { createHarness, payloadOf, type TestTrack } from "../support/harness.ts";
import { makeAudio, tempDir } from "../support/sources.ts";

const h = createHarness();
let cluster: RedisClusterHandle;
let dir: Awaited<ReturnType<typeof tempDir>>;
let source: string;

beforeAll(async () => {
  [cluster, dir] = await Promise.all([startRedisCluster(), tempDir()]);
  source = join(dir.path, "cluster-song.mp3");
  await makeAudio(source, 3, ["-c:a", "libmp3lame", "-b:a", "192k"]);
});

afterAll(async () => {
  await cluster?.stop();
  await dir?.remove();
  await h.close();
});

/** What the Worker does after the track row is committed: one request's connection, then closed. */
async function enqueueAsTheWorker(track: TestTrack): Promise<string> {
  const redis = createRequestRedis(cluster.url);
  try {
    return await enqueueConversion(redis, payloadOf(track));
  } finally {
    await redis.quit();
  }
}

describe("the conversion queue on a Redis Cluster", () => {
  it("converts uploads queued by the Worker's code path, every queue key in one slot", async (context) => {
    const config = loadConfig({
      REDIS_URL: cluster.url,
      DATABASE_URL: inject("appDatabaseUrl"),
      SHUTDOWN_TIMEOUT_MS: "5000",
      // Left over from when the transcoder read it: the queue is the contract's, whatever this says.
      QUEUE_NAME: "elsewhere",
    });
    const connection = connectRedis(cluster.url, { blocking: false }) as Cluster;
    const worker = startQueueWorker(
      config,
      createProcessor({ db: h.db, storage: h.storage, events: trackEvents(connection), config }),
    );
    const queue = new Queue(AUDIO_PROCESSING_QUEUE, {
      connection,
      prefix: AUDIO_PROCESSING_QUEUE_PREFIX,
    });
    context.onTestFinished(async () => {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    });

    const tracks = await Promise.all([1, 2].map(() => h.makeTrack(source)));
    const jobIds = [];
    for (const track of tracks) jobIds.push(await enqueueAsTheWorker(track));

    for (const track of tracks) {
      const row = await h.waitForTrack(track.trackId, (t) => t.processingStatus !== "PROCESSING");
      expect(row.processingStatus).toBe("READY");
      expect((await h.fileRows(track.trackId)).length).toBeGreaterThan(0);
    }
    for (const jobId of jobIds) {
      // The job goes on after READY (it removes the source): wait for its end.
      await expect.poll(() => queue.getJobState(jobId), { timeout: 10_000 }).toBe("completed");
      const job = await queue.getJob(jobId);
      expect(job?.attemptsMade, `${jobId}: ${job?.failedReason}`).toBe(1);
    }
    // The hash tag at work: the queue's keys all live on the one master owning its slot.
    const holders = [];
    for (const node of connection.nodes("master")) {
      const keys = await node.keys(`${AUDIO_PROCESSING_QUEUE_PREFIX}:*`);
      if (keys.length > 0) holders.push(keys.length);
    }
    expect(holders).toHaveLength(1);
  }, 60_000); // ~10 s when the machine is quiet; conversions slow down with its load

  it("fails on BullMQ's default prefix (why the contract's prefix has a hash tag)", async () => {
    const connection = connectRedis(cluster.url, { blocking: false });
    const queue = new Queue(`test-${crypto.randomUUID()}`, { connection });
    queue.on("error", () => {});
    try {
      await expect(queue.add("convert-audio", {})).rejects.toThrow(/CROSSSLOT/);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });

  it("refuses a cluster URL it could not honour at start", () => {
    const load = (url: string) => () =>
      loadConfig({ REDIS_URL: url, DATABASE_URL: inject("appDatabaseUrl") });
    expect(load(`${cluster.url}/2`)).toThrow(/REDIS_URL: a Redis Cluster has only database 0/);
    expect(load("redis-cluster://127.0.0.1:7000")).toThrow(/REDIS_URL: must use one of/);
  });
});
