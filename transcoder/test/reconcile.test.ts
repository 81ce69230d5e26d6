import {
  AUDIO_PROCESSING_JOB_NAME,
  AUDIO_PROCESSING_JOB_OPTIONS,
  audioJobId,
  trackKeys,
} from "@edge-music/contracts";
import { artists, tracks } from "@edge-music/db";
import { Queue } from "bullmq";
import { afterAll, describe, expect, inject, it, onTestFinished } from "vitest";
import { reconcileOnce, startReconciler } from "../src/reconcile.ts";
import { createHarness, unique } from "./support/harness.ts";

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
  await h.db.insert(tracks).values({
    id,
    artistId: artist.id,
    title: "t",
    processingStatus: values.status ?? "PROCESSING",
    sourceKey: values.withSource === false ? null : trackKeys(id).source(sourceFileName),
    sourceFileName,
    createdAt: new Date(Date.now() - values.ageMs),
  });
  return { id, artistId: artist.id, jobId: audioJobId(id, sourceFileName) };
}

describe("reconciler", () => {
  it("re-adds the lost job of a track stuck in PROCESSING, with the contract's id and options", async () => {
    const queue = emptyQueue();
    const stuck = await insertTrack({ ageMs: 10 * MINUTE });
    const added = await reconcileOnce({ db: h.db, queue });
    expect(added).toContain(stuck.jobId);

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
    expect(await reconcileOnce({ db: h.db, queue })).not.toContain(stuck.jobId);
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

    const added = await reconcileOnce({ db: h.db, queue });
    for (const t of [young, ready, failed, sourceless, queued])
      expect(added).not.toContain(t.jobId);
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
