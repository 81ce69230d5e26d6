// Wall time of one conversion job against the bare HLS ffmpeg run it is built around.
//   node --import tsx transcoder/test/bench/conversion.ts [source.mp3] [rounds]
// Without a source, makes a 4-minute 320 kbps MP3 of music-like noise. Starts its own local
// infrastructure (embedded Postgres, Redis, S3-compatible store) and prints figures; asserts
// nothing (STYLE.md: benchmarks are scripts, not timed tests).
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_JOB_OPTIONS,
  audioJobId,
  trackKeys,
} from "@edge-music/contracts";
import { artists, tracks } from "@edge-music/db";
import { migrate } from "@edge-music/db/migrate";
import { createDb } from "@edge-music/db/node";
import { Queue } from "bullmq";
import { startInfra } from "../../../stack/src/infra.ts";
import { loadConfig } from "../../src/config.ts";
import { hlsArgs } from "../../src/ffmpeg/args.ts";
import { runFfmpeg } from "../../src/ffmpeg/run.ts";
import { createProcessor } from "../../src/processor.ts";
import { startTranscoder } from "../../src/service.ts";
import { createStorage } from "../../src/storage.ts";
import { makeAudio } from "../support/sources.ts";

const work = await mkdtemp(join(tmpdir(), "bench-conversion-"));
const source = process.argv[2] ?? join(work, "source-320.mp3");
const rounds = Number(process.argv[3] ?? 3);
if (!process.argv[2]) await makeAudio(source, 240, ["-c:a", "libmp3lame", "-b:a", "320k"]);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const load = () => loadavg()[0]?.toFixed(2);

async function bareHls(round: number): Promise<number> {
  const outDir = join(work, `bare-${round}`);
  const rungs = [128, 192, 320];
  await Promise.all(rungs.map((r) => mkdir(join(outDir, "hls", String(r)), { recursive: true })));
  const { args, cwd } = hlsArgs({ source, outDir, rungs, duration: 240.039184 });
  const started = performance.now();
  await runFfmpeg(args, { cwd, timeoutMs: 600_000 });
  const took = performance.now() - started;
  await rm(outDir, { recursive: true, force: true });
  return took;
}

const infra = await startInfra({ bucket: "bench" });
try {
  await migrate(infra.databaseUrl);
  const database = createDb(infra.databaseUrl, { wsProxy: infra.neonWsProxy });
  const storage = createStorage(infra.s3);
  const queueName = `bench-${crypto.randomUUID()}`;
  const config = loadConfig({
    REDIS_URL: infra.redisUrl,
    DATABASE_URL: infra.databaseUrl,
    QUEUE_NAME: queueName,
  });
  const transcoder = startTranscoder(config, createProcessor({ db: database.db, storage, config }));
  const queue = new Queue(queueName, { connection: { url: infra.redisUrl } });
  const [artist] = await database.db
    .insert(artists)
    .values({ username: "bench", email: "bench@example.test" })
    .returning();
  if (!artist) throw new Error("no artist");

  async function oneJob(): Promise<{ total: number; processing: number }> {
    const trackId = crypto.randomUUID();
    const sourceFileName = "source-320.mp3";
    const sourceKey = trackKeys(trackId).source(sourceFileName);
    await storage.client.send(
      new PutObjectCommand({
        Bucket: infra.s3.bucket,
        Key: sourceKey,
        Body: await readFile(source),
      }),
    );
    await database.db.insert(tracks).values({
      id: trackId,
      artistId: artist?.id ?? "",
      title: "bench",
      sourceKey,
      sourceFileName,
    });
    const payload = { trackId, artistId: artist?.id ?? "", sourceKey, sourceFileName };
    const jobId = audioJobId(trackId, sourceFileName);
    const started = performance.now();
    await queue.add(AUDIO_PROCESSING_JOB_NAME, payload, { ...AUDIO_PROCESSING_JOB_OPTIONS, jobId });
    for (;;) {
      const state = await queue.getJobState(jobId);
      if (state === "completed" || state === "failed") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const total = performance.now() - started;
    const job = await queue.getJob(jobId);
    if (job?.failedReason) throw new Error(`job failed: ${job.failedReason}`);
    return { total, processing: (job?.finishedOn ?? 0) - (job?.processedOn ?? 0) };
  }

  console.log(`source: ${source}; 2 cores expected, load average now ${load()}`);
  for (let round = 1; round <= rounds; round++) {
    const bare = await bareHls(round);
    const job = await oneJob();
    console.log(
      [
        `round ${round}:`,
        `bare HLS ffmpeg ${seconds(bare)}`,
        `| job ${seconds(job.processing)} in the processor, ${seconds(job.total)} add→completed`,
        `| ratio ${(job.total / bare).toFixed(2)} (target ≤ 1.2 × bare + 2 s = ${seconds(bare * 1.2 + 2000)})`,
        `| load ${load()}`,
      ].join(" "),
    );
  }
  await transcoder.close();
  await queue.obliterate({ force: true });
  await queue.close();
  storage.client.destroy();
  await database.close();
} finally {
  await infra.stop();
  await rm(work, { recursive: true, force: true });
}
