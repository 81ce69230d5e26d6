// The queue and storage side of bench/scale-out.bench.ts (it lives here for the transcoder's
// dependencies): uploads as the Worker makes them (the source put into S3, the PROCESSING row, the
// job added by the Worker's own enqueueConversion), the jobs' states, and each track's files.
import { ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import {
  AUDIO_PROCESSING_QUEUE,
  AUDIO_PROCESSING_QUEUE_PREFIX,
  trackKeys,
} from "@edge-music/contracts";
import { artists, trackFiles, tracks } from "@edge-music/db";
import { createDb } from "@edge-music/db/node";
import { Queue } from "bullmq";
import { eq } from "drizzle-orm";
import { enqueueConversion } from "../../../worker/src/connections/queue.ts";
import { createRequestRedis } from "../../../worker/src/connections/redis.ts";
import { createStorage } from "../../src/io/storage.ts";
import type { JobRunnerInfra } from "./job-runner.ts";

export interface Upload {
  trackId: string;
  jobId: string;
}

export function startUploadBatch(infra: JobRunnerInfra) {
  const database = createDb(infra.databaseUrl, { wsProxy: infra.neonWsProxy });
  const storage = createStorage(infra.s3);
  const queue = new Queue(AUDIO_PROCESSING_QUEUE, {
    connection: { url: infra.redisUrl },
    prefix: AUDIO_PROCESSING_QUEUE_PREFIX,
  });

  async function insertArtist(): Promise<string> {
    const username = `bench_${crypto.randomUUID().slice(0, 8)}`;
    const [artist] = await database.db
      .insert(artists)
      .values({ username, email: `${username}@example.test` })
      .returning();
    if (!artist) throw new Error("no artist row");
    return artist.id;
  }

  async function upload(artistId: string, body: Buffer): Promise<Upload> {
    const trackId = crypto.randomUUID();
    const sourceFileName = "scale-out.mp3";
    const sourceKey = trackKeys(trackId).source(sourceFileName);
    await storage.client.send(
      new PutObjectCommand({ Bucket: storage.bucket, Key: sourceKey, Body: body }),
    );
    await database.db.insert(tracks).values({
      id: trackId,
      artistId,
      title: "scale-out",
      processingStatus: "PROCESSING",
      sourceKey,
      sourceFileName,
    });
    const redis = createRequestRedis(infra.redisUrl);
    try {
      const payload = { trackId, artistId, sourceKey, sourceFileName };
      return { trackId, jobId: await enqueueConversion(redis, payload) };
    } finally {
      await redis.quit();
    }
  }

  /** Resolves once every job completed; throws as soon as one failed. */
  async function waitForJobs(jobIds: string[], timeoutMs = 30 * 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const states = await Promise.all(jobIds.map((id) => queue.getJobState(id)));
      if (states.includes("failed")) throw new Error(`a job failed: ${states.join(", ")}`);
      if (states.every((state) => state === "completed")) return;
      if (Date.now() > deadline) throw new Error(`jobs not done: ${states.join(", ")}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** attemptsMade and finishedOn (the worker's clock) of each job. */
  async function jobs(jobIds: string[]) {
    return await Promise.all(
      jobIds.map(async (id) => {
        const job = await queue.getJob(id);
        return { id, attemptsMade: job?.attemptsMade ?? 0, finishedOn: job?.finishedOn ?? 0 };
      }),
    );
  }

  /** The track is READY and its file rows match its objects one for one; their number. */
  async function filesOf(trackId: string): Promise<number> {
    const [row] = await database.db.select().from(tracks).where(eq(tracks.id, trackId));
    if (row?.processingStatus !== "READY") {
      throw new Error(`${trackId} is ${row?.processingStatus}`);
    }
    const rows = await database.db.select().from(trackFiles).where(eq(trackFiles.trackId, trackId));
    const listed = await storage.client.send(
      new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: trackKeys(trackId).prefix }),
    );
    const objects = new Set((listed.Contents ?? []).map((o) => o.Key));
    const keys = new Set(rows.map((r) => r.storageKey));
    const same = objects.size === keys.size && [...keys].every((k) => objects.has(k));
    if (keys.size !== rows.length || !same) {
      throw new Error(`${trackId}: ${rows.length} file rows, ${objects.size} objects`);
    }
    return rows.length;
  }

  return {
    insertArtist,
    upload,
    waitForJobs,
    jobs,
    filesOf,
    workersCount: () => queue.getWorkersCount(),
    async close() {
      await queue.close();
      storage.client.destroy();
      await database.close();
    },
  };
}
