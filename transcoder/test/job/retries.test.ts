import { execFile } from "node:child_process";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { S3ServiceException } from "@aws-sdk/client-s3";
import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_JOB_OPTIONS,
  trackKeys,
} from "@edge-music/contracts";
import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import type { Storage } from "../../src/io/storage.ts";
import { createHarness, payloadOf } from "../support/harness.ts";
import { expectOutputs } from "../support/outputs.ts";
import { makeAudio, tempDir } from "../support/sources.ts";

const exec = promisify(execFile);
const h = createHarness();
let dir: Awaited<ReturnType<typeof tempDir>>;
/** 10 s: ffmpeg works long enough for a fault to land in the middle of its run. */
let source = "";
/** 4 s, the same kind of file: for the tests whose conversions only have to finish. */
let short = "";

beforeAll(async () => {
  dir = await tempDir();
  source = join(dir.path, "song.mp3");
  short = join(dir.path, "short-song.mp3");
  await Promise.all([
    makeAudio(source, 10, ["-c:a", "libmp3lame", "-b:a", "192k"]),
    makeAudio(short, 4, ["-c:a", "libmp3lame", "-b:a", "192k"]),
  ]);
}, 60_000);
afterAll(async () => {
  await h.close();
  await dir.remove();
});

/** The real storage, with `download` failing the first `times` calls like a flaky network. */
function flakyDownloads(storage: Storage, times: number): Storage {
  let calls = 0;
  return {
    ...storage,
    async download(key, path, signal) {
      if (calls++ < times) {
        throw new S3ServiceException({
          name: "InternalError",
          $fault: "server",
          $metadata: { httpStatusCode: 500 },
          message: "We encountered an internal error. Please try again.",
        });
      }
      await storage.download(key, path, signal);
    },
  };
}

/** Kills (SIGKILL, as the OOM killer does) the first ffmpeg seen working under `workRoot`. */
async function killFfmpegUnder(workRoot: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { stdout } = await exec("ps", ["-eo", "pid=,args="]);
    for (const line of stdout.split("\n")) {
      const [pid, command] = line.trim().split(/\s+/);
      if (command === "ffmpeg" && line.includes(workRoot)) {
        process.kill(Number(pid), "SIGKILL");
        return;
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("no ffmpeg run seen");
}

/** Deletes the first Opus output that appears under `workRoot` while ffmpeg is still writing it. */
async function loseOpusOutputUnder(workRoot: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const work of await readdir(workRoot)) {
      const audio = join(workRoot, work, "out", "audio");
      const opus = (await readdir(audio).catch(() => [])).find((name) => name.endsWith(".opus"));
      if (opus) return await rm(join(audio, opus));
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("no Opus output seen");
}

/**
 * A conversion (1-s fixed backoff) whose first attempt `fault` breaks in the transcoder's work
 * folder, once the track records that attempt's error.
 */
async function firstAttemptFailedBy(
  context: TestContext,
  fault: (workRoot: string) => Promise<unknown>,
) {
  const work = await tempDir();
  context.onTestFinished(() => work.remove());
  const { enqueue, settle, queue } = await h.startQueue(context, {
    deps: { workRoot: work.path },
  });
  const track = await h.makeTrack(source);
  const job = await enqueue(track, { backoff: { type: "fixed", delay: 1_000 } });
  await fault(work.path);
  const waiting = await h.waitForTrack(track.trackId, (r) => r.processingError !== null);
  return { track, job, waiting, settle, queue };
}

describe.concurrent("recoverable failures", () => {
  it("an output lost on disk fails the output check: retried, not FAILED, READY next time", async (context) => {
    const { track, job, waiting, settle, queue } = await firstAttemptFailedBy(
      context,
      loseOpusOutputUnder,
    );
    expect(waiting).toMatchObject({
      processingStatus: "PROCESSING",
      processingAttempts: 1,
      processingError: expect.stringMatching(
        /^The converted Opus 1\d\dk file could not be read back/,
      ),
    });
    expect(await settle(track)).toMatchObject({ processingStatus: "READY", processingAttempts: 2 });
    expect((await queue.getJob(job.id ?? ""))?.attemptsMade).toBe(2);
    await expectOutputs(h, track.trackId, [128, 192]);
  }, 90_000);

  it("ffmpeg killed mid-conversion: retried, READY on the second attempt", async (context) => {
    const { track, job, waiting, settle, queue } = await firstAttemptFailedBy(
      context,
      killFfmpegUnder,
    );
    expect(waiting).toMatchObject({
      processingStatus: "PROCESSING",
      processingAttempts: 1,
      processingError: "The conversion was interrupted (ffmpeg was stopped by a signal).",
    });
    const row = await settle(track);
    expect(row).toMatchObject({
      processingStatus: "READY",
      processingAttempts: 2,
      processingError: null,
    });
    expect((await queue.getJob(job.id ?? ""))?.attemptsMade).toBe(2);
  }, 90_000);

  it("a transient fault waits the contract's backoff before each retry: 5 s, 10 s, 20 s", async (context) => {
    const { enqueue, queue } = await h.startQueue(context);
    const track = await h.makeTrack(short, { upload: false });
    const job = await enqueue(track, { backoff: AUDIO_PROCESSING_JOB_OPTIONS.backoff });
    const id = job.id ?? "";
    for (const [attemptsMade, delay] of [
      [1, 5_000],
      [2, 10_000],
      [3, 20_000],
    ]) {
      await expect
        .poll(async () => {
          const state = await queue.getJobState(id);
          const current = await queue.getJob(id);
          return { state, attemptsMade: current?.attemptsMade, delay: current?.delay };
        })
        .toEqual({ state: "delayed", attemptsMade, delay });
      // Not waiting the delay out: the next attempt is started at once.
      await (await queue.getJob(id))?.promote();
    }
    expect(await h.track(track.trackId)).toMatchObject({
      processingStatus: "PROCESSING",
      processingError: "The uploaded source was not found in storage.",
      // Not the file's fault: it may be converted again.
      sourceUnreadable: false,
    });
  }, 30_000);

  it("a storage hiccup on the first attempt: READY on the second, two attempts counted", async (context) => {
    const { enqueue, settle, queue } = await h.startQueue(context, {
      deps: { storage: flakyDownloads(h.storage, 1) },
    });
    const track = await h.makeTrack(short);
    const job = await enqueue(track);
    const row = await settle(track);
    // Why each failed attempt failed, for the message of a count that is off (once seen: 3).
    const done = await queue.getJob(job.id ?? "");
    const why = `failed attempts: ${JSON.stringify(done?.stacktrace ?? [])}`;
    expect(row.processingStatus, why).toBe("READY");
    expect(row.processingAttempts, why).toBe(2);
    expect(row.processingError).toBeNull();
    // BullMQ counts the successful attempt too.
    expect(done?.attemptsMade, why).toBe(2);
    await expectOutputs(h, track.trackId, [128, 192]);
  }, 90_000);

  it("while waiting for the retry, the track shows PROCESSING and the reason", async (context) => {
    const { enqueue, settle } = await h.startQueue(context);
    const track = await h.makeTrack(short, { upload: false });
    await enqueue(track, { backoff: { type: "fixed", delay: 1_500 } });
    const waiting = await h.waitForTrack(track.trackId, (r) => r.processingError !== null);
    expect(waiting).toMatchObject({
      processingStatus: "PROCESSING",
      processingAttempts: 1,
      processingError: "The uploaded source was not found in storage.",
    });
    // The upload lands late (the source appears before the next attempt).
    await h.putFile(track.sourceKey, short);
    const row = await settle(track);
    expect(row).toMatchObject({ processingStatus: "READY", processingAttempts: 2 });
    expect(row.processingError).toBeNull();
  }, 90_000);

  it("five failed attempts: FAILED with the last reason", async (context) => {
    const { enqueue, settle, queue } = await h.startQueue(context);
    const track = await h.makeTrack(short, { upload: false });
    const job = await enqueue(track);
    const row = await settle(track);
    expect(row).toMatchObject({
      processingStatus: "FAILED",
      processingAttempts: 5,
      processingError: "The uploaded source was not found in storage.",
    });
    expect(row.processingFinishedAt).toBeInstanceOf(Date);
    expect((await queue.getJob(job.id ?? ""))?.attemptsMade).toBe(5);
  }, 90_000);
});

describe.concurrent("idempotency", () => {
  it("converting the same track twice leaves the same objects and rows, no duplicates", async (context) => {
    const { enqueue, settle } = await h.startQueue(context);
    const track = await h.makeTrack(short);
    await enqueue(track);
    expect((await settle(track)).processingStatus).toBe("READY");
    const first = await expectOutputs(h, track.trackId, [128, 192]);

    // As after a crash between the uploads and the commit: the source is back, the row PROCESSING.
    await h.putFile(track.sourceKey, short);
    await h.db
      .update(tracks)
      .set({ processingStatus: "PROCESSING", sourceKey: track.sourceKey })
      .where(eq(tracks.id, track.trackId));
    const jobId = `again-${crypto.randomUUID()}`;
    await enqueue(track, { jobId });
    const row = await settle(track, { jobId });
    expect(row).toMatchObject({
      processingStatus: "READY",
      processingAttempts: 2,
      sourceKey: null,
    });
    const second = await expectOutputs(h, track.trackId, [128, 192]);
    expect(second.objects.map((o) => o.key)).toEqual(first.objects.map((o) => o.key));
    expect(second.rows).toHaveLength(first.rows.length);
    expect(new Set(second.rows.map((r) => r.storageKey)).size).toBe(second.rows.length);
  }, 120_000);

  it("a job delivered again after READY changes nothing", async (context) => {
    const { enqueue, settle, queue } = await h.startQueue(context);
    const track = await h.makeTrack(short);
    await enqueue(track);
    const ready = await settle(track);
    const rows = await h.fileRows(track.trackId);

    const jobId = `again-${crypto.randomUUID()}`;
    await enqueue(track, { jobId });
    const after = await settle(track, { jobId });
    expect((await queue.getJob(jobId))?.returnvalue).toMatchObject({ status: "skipped" });
    expect(after.processingAttempts).toBe(ready.processingAttempts);
    expect(after.updatedAt).toEqual(ready.updatedAt);
    expect(await h.fileRows(track.trackId)).toEqual(rows);
  }, 90_000);
});

describe.concurrent("tracks that are gone", () => {
  it("a job for a deleted track finishes quietly and writes nothing", async (context) => {
    const { queue } = await h.startQueue(context);
    const trackId = crypto.randomUUID();
    const track = {
      trackId,
      artistId: crypto.randomUUID(),
      sourceKey: trackKeys(trackId).source("gone.mp3"),
      sourceFileName: "gone.mp3",
    };
    const job = await queue.add(AUDIO_PROCESSING_JOB_NAME, payloadOf(track), { attempts: 5 });
    const events = await waitFinished(queue, job.id ?? "");
    expect(events.state).toBe("completed");
    expect(events.returnvalue).toMatchObject({ status: "skipped" });
    expect(await h.listObjects(trackKeys(trackId).prefix)).toEqual([]);
  }, 30_000);

  it("a track deleted during conversion: its freshly uploaded outputs are removed", async (context) => {
    const track = await h.makeTrack(short);
    let deleted = false;
    const storage: Storage = {
      ...h.storage,
      async upload(item, signal) {
        if (!deleted) {
          deleted = true;
          await h.db.delete(tracks).where(eq(tracks.id, track.trackId));
        }
        await h.storage.upload(item, signal);
      },
    };
    const { enqueue, queue } = await h.startQueue(context, { deps: { storage } });
    const job = await enqueue(track);
    const events = await waitFinished(queue, job.id ?? "");
    expect(events.returnvalue).toMatchObject({ status: "skipped" });
    const left = await h.listObjects(trackKeys(track.trackId).prefix);
    // Only the source remains (the Worker deletes it with the track; here nobody did).
    expect(left.map((o) => o.key)).toEqual([track.sourceKey]);
  }, 90_000);

  it("a payload that does not parse fails at once", async (context) => {
    const { queue } = await h.startQueue(context);
    const job = await queue.add(AUDIO_PROCESSING_JOB_NAME, { trackId: "nope" }, { attempts: 5 });
    const events = await waitFinished(queue, job.id ?? "");
    expect(events).toMatchObject({ state: "failed", attemptsMade: 1 });
    expect(events.failedReason).toBe("invalid conversion job payload");
    // Not delayed for a retry: failed for good.
    expect(await queue.getDelayedCount()).toBe(0);
  }, 30_000);
});

async function waitFinished(queue: Awaited<ReturnType<typeof h.startQueue>>["queue"], id: string) {
  for (let i = 0; i < 600; i++) {
    // State first: a job read before its state changed would be stale.
    const state = await queue.getJobState(id);
    const job = await queue.getJob(id);
    if (job && (state === "completed" || state === "failed")) {
      return {
        state,
        returnvalue: job.returnvalue,
        attemptsMade: job.attemptsMade,
        failedReason: job.failedReason,
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${id} did not finish`);
}
