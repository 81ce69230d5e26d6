import { execFile, spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_JOB_OPTIONS,
  AUDIO_PROCESSING_QUEUE,
  AUDIO_PROCESSING_QUEUE_PREFIX,
  audioJobId,
  trackKeys,
} from "@edge-music/contracts";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createHarness, payloadOf } from "./support/harness.ts";
import { makeAudio, tempDir } from "./support/sources.ts";

const exec = promisify(execFile);
const h = createHarness();
const infra = inject("infra");
/**
 * The transcoder process takes the contract's queue: a Redis database of its own, apart from the
 * Worker's suites (database 0) and the container test's (15).
 */
const OWN_REDIS_DATABASE = 14;
let dir: Awaited<ReturnType<typeof tempDir>>;
let workRoot: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir();
  workRoot = await tempDir();
  // Long enough that the conversion is still running when the shutdown timeout ends.
  await makeAudio(join(dir.path, "long.wav"), 240, ["-c:a", "pcm_s16le"]);
}, 120_000);
afterAll(async () => {
  await h.close();
  await dir.remove();
  await workRoot.remove();
});

async function processesUsing(path: string): Promise<string[]> {
  const { stdout } = await exec("ps", ["-eo", "args"]);
  return stdout.split("\n").filter((line) => line.includes(path) && !line.startsWith("ps "));
}

describe("shutdown during a conversion", () => {
  it("kills ffmpeg after the timeout, cleans up and hands the job back without using an attempt", async (context) => {
    const { enqueue, worker, queue } = await h.startQueue(context, {
      config: { SHUTDOWN_TIMEOUT_MS: "1000" },
      deps: { workRoot: workRoot.path, progressIntervalMs: 200 },
    });
    const track = await h.makeTrack(join(dir.path, "long.wav"));
    await enqueue(track, { backoff: { type: "fixed", delay: 60_000 } });
    // ffmpeg is running once progress moves past the probe.
    await h.waitForTrack(track.trackId, (r) => r.processingProgress > 5, 60_000);
    expect(await processesUsing(workRoot.path)).not.toEqual([]);

    const started = Date.now();
    await worker.close();
    expect(Date.now() - started).toBeLessThan(4_000);

    expect(await processesUsing(workRoot.path)).toEqual([]);
    expect(await readdir(workRoot.path)).toEqual([]);
    // Back in the queue, ready for the next transcoder: not delayed, not failed, no attempt used.
    const jobId = audioJobId(track.trackId, track.sourceFileName);
    expect(await queue.getJobState(jobId)).toBe("waiting");
    const job = await queue.getJob(jobId);
    expect(job).toMatchObject({ attemptsMade: 0, attemptsStarted: 1 });
    expect(job?.failedReason).toBeFalsy();
    // The artist sees a conversion that has not failed and starts over.
    expect(await h.track(track.trackId)).toMatchObject({
      processingStatus: "PROCESSING",
      processingAttempts: 0,
      processingProgress: 0,
      processingError: null,
    });
    // Nothing was published, the source is still there for the next run.
    const objects = await h.listObjects(trackKeys(track.trackId).prefix);
    expect(objects.map((o) => o.key)).toEqual([track.sourceKey]);
  }, 120_000);
});

describe("SIGTERM to the transcoder's process group", () => {
  it("ffmpeg, stopped by the same signal, is handed back with the job: no attempt used", async (context) => {
    const redisUrl = new URL(infra.redisUrl);
    redisUrl.pathname = `/${OWN_REDIS_DATABASE}`;
    const queue = new Queue(AUDIO_PROCESSING_QUEUE, {
      connection: { url: redisUrl.toString() },
      prefix: AUDIO_PROCESSING_QUEUE_PREFIX,
    });
    const work = await tempDir();
    let output = "";
    // Its own process group, as a container's: the signal reaches node and ffmpeg alike.
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: join(import.meta.dirname, ".."),
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH,
        TMPDIR: work.path,
        REDIS_URL: redisUrl.toString(),
        DATABASE_URL: inject("appDatabaseUrl"),
        NEON_WS_PROXY: infra.neonWsProxy,
        S3_ENDPOINT: infra.s3.endpoint,
        S3_REGION: infra.s3.region,
        S3_BUCKET: infra.s3.bucket,
        S3_ACCESS_KEY_ID: infra.s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: infra.s3.secretAccessKey,
        // Far longer than the test: the hand-back must not wait for the timeout.
        SHUTDOWN_TIMEOUT_MS: "60000",
        // The reconciler must leave the other suites' tracks alone.
        RECONCILE_MIN_AGE_MS: String(10 ** 12),
      },
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    context.onTestFinished(async () => {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGKILL");
      await queue.obliterate({ force: true });
      await queue.close();
      await work.remove();
    });

    const track = await h.makeTrack(join(dir.path, "long.wav"));
    const jobId = audioJobId(track.trackId, track.sourceFileName);
    await queue.add(AUDIO_PROCESSING_JOB_NAME, payloadOf(track), {
      ...AUDIO_PROCESSING_JOB_OPTIONS,
      jobId,
    });
    await h.waitForTrack(track.trackId, (r) => r.processingProgress > 5, 60_000);
    expect(await processesUsing(work.path)).not.toEqual([]);

    const started = Date.now();
    process.kill(-(child.pid ?? 0), "SIGTERM");
    expect(await exited, output).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(output).toContain("conversion handed back on shutdown");

    expect(await processesUsing(work.path)).toEqual([]);
    // The work folder is gone (tsx keeps its cache beside it).
    expect((await readdir(work.path)).filter((name) => name.startsWith("transcode-"))).toEqual([]);
    expect(await queue.getJobState(jobId)).toBe("waiting");
    expect(await queue.getJob(jobId)).toMatchObject({ attemptsMade: 0, attemptsStarted: 1 });
    expect(await h.track(track.trackId)).toMatchObject({
      processingStatus: "PROCESSING",
      processingAttempts: 0,
      processingError: null,
    });
  }, 120_000);
});
