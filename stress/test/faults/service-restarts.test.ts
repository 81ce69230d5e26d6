import { audioJobId } from "@edge-music/contracts";
import { tracks } from "@edge-music/db";
import { uploadTrack } from "@edge-music/e2e/api";
import type { Restartable } from "@edge-music/stack";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectConsistent } from "../support/settled.ts";
import { faultSuite } from "../support/suite.ts";
import { ffmpegRunning, readyRow, settledJob } from "../support/tracks.ts";
import { uploadWithPause } from "../support/upload.ts";
import { until } from "../support/wait.ts";

// Redis and Postgres taken down and brought back on one stack, one after the other: each test
// ends with the whole database and store consistent, the earlier test's tracks included.
const suite = faultSuite("restarts", 10);
let redis: Restartable;
let postgres: Restartable;

beforeAll(() => {
  const { restartable } = suite.stack.infra;
  if (!restartable.redis || !restartable.postgres) {
    throw new Error("the stack did not start its own Redis and Postgres");
  }
  redis = restartable.redis;
  postgres = restartable.postgres;
});
// Runs before the suite's own afterEach: both are back before the transcoders are stopped.
afterEach(async () => {
  await Promise.all([redis.up(), postgres.up()]);
});

describe("Redis stopped while converting and during an upload, back empty", () => {
  it("the upload is refused cleanly, every queued track still converts, nothing is lost", async () => {
    const transcoder = await suite.stack.startTranscoder();
    const converting = (
      await uploadTrack(suite.stack.apiUrl, suite.session, suite.source, "converting")
    ).track;
    const waiting = (await uploadTrack(suite.stack.apiUrl, suite.session, suite.source, "waiting"))
      .track;
    await ffmpegRunning(transcoder);

    // Redis goes away in the middle of an upload's body (and of a conversion); the test Redis
    // keeps nothing on disk, so it comes back without a single job.
    const title = "uploaded while Redis is down";
    const refused = await uploadWithPause(
      suite.stack.apiUrl,
      suite.session,
      suite.source,
      title,
      () => redis.down(),
    );
    const text = await refused.text();
    expect(refused.status, text).toBe(503);
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(text) as Record<string, unknown>;
    expect(problem).toMatchObject({ status: 503 });
    expect(problem.requestId).toEqual(expect.any(String));
    // Nothing of the cause reaches the client: no host, port, driver error or suite.stack.
    expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|ioredis|redis:\/\/|\bat .+\.(ts|js):\d+/i);
    const kept = await suite.stack.db.select().from(tracks).where(eq(tracks.title, title));
    expect(kept).toEqual([]);

    await redis.up();
    const after = (
      await uploadTrack(suite.stack.apiUrl, suite.session, suite.source, "after the outage")
    ).track;
    // The converting track finishes on its own; the waiting one's job was lost with Redis and
    // comes back through the reconciler.
    for (const track of [converting, waiting, after]) await readyRow(suite.stack, track.id);
    await expectConsistent(suite.stack);
  });
});

describe("Postgres restarted while converting", () => {
  it("the attempt that lost the database is retried and the track ends READY", async () => {
    const transcoder = await suite.stack.startTranscoder();
    const { track } = await uploadTrack(
      suite.stack.apiUrl,
      suite.session,
      suite.source,
      "database restarted",
    );
    const row = await suite.stack.trackRow(track.id);
    const jobId = audioJobId(track.id, row?.sourceFileName ?? "");
    await ffmpegRunning(transcoder);

    await postgres.down();
    // Down until the running attempt has needed it (its commit) and failed: BullMQ holds the
    // job for its backoff. Then Postgres comes back on the same port with the same data.
    await until(
      "the attempt to fail and wait for its retry",
      async () => (await suite.stack.queue.getJobState(jobId)) === "delayed",
      { timeoutMs: 60_000 },
    );
    await postgres.up();

    const ready = await readyRow(suite.stack, track.id);
    expect(ready.processingAttempts).toBeGreaterThanOrEqual(2);
    expect(
      (await settledJob(suite.stack, jobId, "completed"))?.attemptsMade,
    ).toBeGreaterThanOrEqual(2);
    await expectConsistent(suite.stack);
  });
});
