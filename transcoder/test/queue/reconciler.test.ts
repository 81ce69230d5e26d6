import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_JOB_OPTIONS,
  audioJobId,
  trackKeys,
} from "@edge-music/contracts";
import { artists, tracks } from "@edge-music/db";
import { type JobsOptions, type Processor, Queue, UnrecoverableError, Worker } from "bullmq";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, inject, it, onTestFinished } from "vitest";
import { SOURCE_REMOVED_NOTE } from "../../src/job/upload-retention.ts";
import { failedJobReason, reconcileOnce, startReconciler } from "../../src/queue/reconciler.ts";
import { createHarness, unique } from "../support/harness.ts";

const h = createHarness();
afterAll(() => h.close());

/** A queue with no worker: whatever the reconciler adds stays there to be looked at. */
function emptyQueue() {
  const queue = new Queue(`test-${crypto.randomUUID()}`, {
    connection: { url: inject("infra").redisUrl },
  });
  onTestFinished(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });
  return queue;
}

const MINUTE = 60_000;

async function insertTrack(values: {
  status?: "PROCESSING" | "READY" | "FAILED";
  ageMs: number;
  withSource?: boolean;
}) {
  const username = unique("rc_");
  const [artist] = await h.db
    .insert(artists)
    .values({ username, email: `${username}@example.test` })
    .returning();
  if (!artist) throw new Error("no artist");
  const id = crypto.randomUUID();
  const sourceFileName = "My Song (final).mp3";
  const sourceKey = trackKeys(id).source(sourceFileName);
  await h.db.insert(tracks).values({
    id,
    artistId: artist.id,
    title: "t",
    processingStatus: values.status ?? "PROCESSING",
    sourceKey: values.withSource === false ? null : sourceKey,
    sourceFileName,
    createdAt: new Date(Date.now() - values.ageMs),
  });
  const payload = { trackId: id, artistId: artist.id, sourceKey, sourceFileName };
  return { id, artistId: artist.id, payload, jobId: audioJobId(id, sourceFileName) };
}

type Inserted = Awaited<ReturnType<typeof insertTrack>>;

const trackRow = async (id: string) =>
  (await h.db.select().from(tracks).where(eq(tracks.id, id)))[0];

/** A worker on the queue with this processor (not ours: it never writes the track). */
function workerOn(queue: Queue, processor: Processor, options: Partial<Worker["opts"]> = {}) {
  const worker = new Worker(queue.name, processor, {
    connection: { url: inject("infra").redisUrl },
    ...options,
  });
  onTestFinished(() => worker.close(true));
  return worker;
}

async function addJob(queue: Queue, track: Inserted, options: JobsOptions) {
  await queue.add(AUDIO_PROCESSING_JOB_NAME, track.payload, { jobId: track.jobId, ...options });
}

const stateOf = (queue: Queue, track: Inserted) => () => queue.getJobState(track.jobId);

describe("reconciler", () => {
  it("re-adds the lost job of a track stuck in PROCESSING, with the contract's id and options", async () => {
    const queue = emptyQueue();
    const stuck = await insertTrack({ ageMs: 10 * MINUTE });
    const { requeued } = await reconcileOnce({ db: h.db, queue });
    expect(requeued).toContain(stuck.jobId);

    const job = await queue.getJob(stuck.jobId);
    expect(job?.name).toBe(AUDIO_PROCESSING_JOB_NAME);
    expect(job?.data).toEqual({
      trackId: stuck.id,
      artistId: stuck.artistId,
      sourceKey: trackKeys(stuck.id).source("My Song (final).mp3"),
      sourceFileName: "My Song (final).mp3",
    });
    expect(job?.opts).toMatchObject({
      attempts: AUDIO_PROCESSING_JOB_OPTIONS.attempts,
      backoff: AUDIO_PROCESSING_JOB_OPTIONS.backoff,
    });

    // Idempotent: the job is there now.
    expect((await reconcileOnce({ db: h.db, queue })).requeued).not.toContain(stuck.jobId);
    expect(await queue.getJobCountByTypes("waiting")).toBeGreaterThanOrEqual(1);
  });

  it("leaves alone young tracks, finished ones, tracks without a source and queued jobs", async () => {
    const queue = emptyQueue();
    const young = await insertTrack({ ageMs: 10_000 });
    const ready = await insertTrack({ status: "READY", ageMs: 10 * MINUTE });
    const failed = await insertTrack({ status: "FAILED", ageMs: 10 * MINUTE });
    const sourceless = await insertTrack({ ageMs: 10 * MINUTE, withSource: false });
    const queued = await insertTrack({ ageMs: 10 * MINUTE });
    await queue.add("convert-audio", { queued: true }, { jobId: queued.jobId });

    const { requeued } = await reconcileOnce({ db: h.db, queue });
    for (const t of [young, ready, failed, sourceless, queued])
      expect(requeued).not.toContain(t.jobId);
    expect((await queue.getJob(queued.jobId))?.data).toEqual({ queued: true });
  });

  it("runs a pass at start and then on its interval", async () => {
    const queue = emptyQueue();
    const first = await insertTrack({ ageMs: 10 * MINUTE });
    const reconciler = startReconciler({ db: h.db, queue, intervalMs: 200 });
    onTestFinished(() => reconciler.stop());
    await expect.poll(() => queue.getJob(first.jobId), { timeout: 5_000 }).toBeDefined();

    const later = await insertTrack({ ageMs: 10 * MINUTE });
    await expect.poll(() => queue.getJob(later.jobId), { timeout: 5_000 }).toBeDefined();
    await reconciler.stop();
  });
});

describe("reconciler: jobs BullMQ failed for good", () => {
  it("marks FAILED a PROCESSING track whose job used up its attempts, with a readable reason", async () => {
    const queue = emptyQueue();
    const track = await insertTrack({ ageMs: 10 * MINUTE });
    workerOn(queue, async () => {
      throw new Error("ffmpeg failed (exit 1): /tmp/transcode-Ab12/source.mp3: Invalid data found");
    });
    await addJob(queue, track, { attempts: 1 });
    await expect.poll(stateOf(queue, track), { timeout: 10_000 }).toBe("failed");
    expect((await trackRow(track.id))?.processingStatus).toBe("PROCESSING");

    const before = Date.now();
    const result = await reconcileOnce({ db: h.db, queue });
    expect(result.failed).toContain(track.id);
    expect(result.requeued).not.toContain(track.jobId);
    const row = await trackRow(track.id);
    expect(row?.processingStatus).toBe("FAILED");
    expect(row?.processingError).toBe("ffmpeg failed (exit 1): source.mp3: Invalid data found.");
    expect(row?.processingFinishedAt?.getTime()).toBeGreaterThanOrEqual(before - 1_000);

    // Done once: the next pass has nothing left to do for it.
    expect((await reconcileOnce({ db: h.db, queue })).failed).not.toContain(track.id);
  });

  it("marks FAILED a track whose job stalled more than allowed (the transcoder died mid-job)", async () => {
    const queue = emptyQueue();
    const track = await insertTrack({ ageMs: 10 * MINUTE });
    await addJob(queue, track, { attempts: 5 });
    // A worker takes the job and dies: its lock is never renewed and expires.
    const dead = workerOn(queue, null as unknown as Processor, {
      autorun: false,
      lockDuration: 300,
    });
    expect((await dead.getNextJob("dead-worker"))?.id).toBe(track.jobId);
    // Another worker's stalled check finds it; BullMQ fails it without calling the processor.
    let called = false;
    workerOn(
      queue,
      async () => {
        called = true;
      },
      { stalledInterval: 300, maxStalledCount: 0 },
    );
    await expect.poll(stateOf(queue, track), { timeout: 10_000 }).toBe("failed");
    expect(called).toBe(false);
    const job = await queue.getJob(track.jobId);
    expect(job?.attemptsMade).toBeLessThan(5);

    expect((await reconcileOnce({ db: h.db, queue })).failed).toContain(track.id);
    const row = await trackRow(track.id);
    expect(row?.processingStatus).toBe("FAILED");
    expect(row?.processingError).toBe(
      "The conversion was interrupted too many times (the transcoder stopped while converting).",
    );
    expect(row?.processingFinishedAt).toBeInstanceOf(Date);
  });

  it("marks FAILED a track whose job failed as unrecoverable on an early attempt", async () => {
    const queue = emptyQueue();
    const track = await insertTrack({ ageMs: 10 * MINUTE });
    workerOn(queue, async () => {
      throw new UnrecoverableError("the file has no audio stream");
    });
    await addJob(queue, track, { attempts: 5 });
    await expect.poll(stateOf(queue, track), { timeout: 10_000 }).toBe("failed");

    expect((await reconcileOnce({ db: h.db, queue })).failed).toContain(track.id);
    expect(await trackRow(track.id)).toMatchObject({
      processingStatus: "FAILED",
      processingError: "The file has no audio stream.",
    });
  });

  it("leaves PROCESSING a track whose failed attempt BullMQ will retry, and a track already READY", async () => {
    const queue = emptyQueue();
    const retrying = await insertTrack({ ageMs: 10 * MINUTE });
    const ready = await insertTrack({ status: "READY", ageMs: 10 * MINUTE });
    workerOn(queue, async () => {
      throw new Error("temporary storage error (SlowDown)");
    });
    const retry = { attempts: 3, backoff: { type: "fixed", delay: 60_000 } };
    await addJob(queue, retrying, retry);
    await addJob(queue, ready, { attempts: 1 });
    await expect.poll(stateOf(queue, retrying), { timeout: 10_000 }).toBe("delayed");
    await expect.poll(stateOf(queue, ready), { timeout: 10_000 }).toBe("failed");

    const { failed } = await reconcileOnce({ db: h.db, queue });
    expect(failed).not.toContain(retrying.id);
    expect(failed).not.toContain(ready.id);
    expect((await trackRow(retrying.id))?.processingStatus).toBe("PROCESSING");
    expect(await trackRow(ready.id)).toMatchObject({
      processingStatus: "READY",
      processingError: null,
    });
  });

  it("removes the upload of a track FAILED more than 7 days ago, and the track says so", async () => {
    const queue = emptyQueue();
    const old = await insertTrack({ status: "FAILED", ageMs: 10 * 24 * 60 * MINUTE });
    const recent = await insertTrack({ status: "FAILED", ageMs: 10 * 24 * 60 * MINUTE });
    const finished = (id: string, daysAgo: number) =>
      h.db
        .update(tracks)
        .set({
          processingError: "The file could not be decoded as audio.",
          processingFinishedAt: new Date(Date.now() - daysAgo * 24 * 60 * MINUTE),
        })
        .where(eq(tracks.id, id));
    await finished(old.id, 7.1);
    await finished(recent.id, 6.9);
    for (const track of [old, recent])
      await h.putFile(track.payload.sourceKey, import.meta.filename);

    const { sourcesRemoved } = await reconcileOnce({ db: h.db, queue, storage: h.storage });
    expect(sourcesRemoved).toContain(old.id);
    expect(sourcesRemoved).not.toContain(recent.id);
    expect(await trackRow(old.id)).toMatchObject({
      processingStatus: "FAILED",
      sourceKey: null,
      processingError: `The file could not be decoded as audio. ${SOURCE_REMOVED_NOTE}`,
    });
    expect(await h.listObjects(old.payload.sourceKey)).toEqual([]);
    // Within the retention the upload stays, for a retry by hand.
    expect((await trackRow(recent.id))?.sourceKey).toBe(recent.payload.sourceKey);
    expect(await h.listObjects(recent.payload.sourceKey)).toHaveLength(1);
    // Without a storage the pass leaves uploads alone.
    expect((await reconcileOnce({ db: h.db, queue })).sourcesRemoved).toEqual([]);
  });

  it("turns BullMQ's and drizzle's texts into reasons an artist may read", () => {
    expect(failedJobReason("job stalled more than allowable limit")).toMatch(/interrupted/);
    expect(failedJobReason('Failed query: update "tracks" set "x" = $1\nparams: 1')).toBe(
      "A temporary database error stopped the conversion.",
    );
    expect(failedJobReason(undefined)).toBe("The conversion failed.");
    expect(failedJobReason("")).toBe("The conversion failed.");
  });
});
