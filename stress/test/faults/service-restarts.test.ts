import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { audioJobId } from "@edge-music/contracts";
import { tracks } from "@edge-music/db";
import { registerArtist, type Session, uploadTrack } from "@edge-music/e2e/api";
import { makeMp3Source } from "@edge-music/e2e/media";
import type { Restartable } from "@edge-music/stack";
import { eq } from "drizzle-orm";
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  onTestFailed,
} from "vitest";
import { type FaultStack, startFaultStack } from "../support/fault-stack.ts";
import { expectConsistent } from "../support/settled.ts";
import { completedJob, ffmpegRunning, readyRow } from "../support/tracks.ts";
import { uploadWithPause } from "../support/upload.ts";
import { until } from "../support/wait.ts";

// Redis and Postgres taken down and brought back on one stack, one after the other: each test
// ends with the whole database and store consistent, the earlier test's tracks included.
let stack: FaultStack;
let redis: Restartable;
let postgres: Restartable;
let session: Session;
let dir: string;
let source: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "stress-restarts-"));
  source = join(dir, "restarts.mp3");
  await Promise.all([
    makeMp3Source(source, 10),
    startFaultStack().then((s) => {
      stack = s;
    }),
  ]);
  const { restartable } = stack.infra;
  if (!restartable.redis || !restartable.postgres) {
    throw new Error("the stack did not start its own Redis and Postgres");
  }
  redis = restartable.redis;
  postgres = restartable.postgres;
  session = await registerArtist(stack.apiUrl);
});
beforeEach(() => onTestFailed(() => console.log(stack.logs())));
afterEach(async () => {
  await Promise.all([redis.up(), postgres.up()]);
  await stack.stopTranscoders();
});
afterAll(async () => {
  await stack?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("Redis stopped while converting and during an upload, back empty", () => {
  it("the upload is refused cleanly, every queued track still converts, nothing is lost", async () => {
    const transcoder = await stack.startTranscoder();
    const converting = (await uploadTrack(stack.apiUrl, session, source, "converting")).track;
    const waiting = (await uploadTrack(stack.apiUrl, session, source, "waiting")).track;
    await ffmpegRunning(transcoder);

    // Redis goes away in the middle of an upload's body (and of a conversion); the test Redis
    // keeps nothing on disk, so it comes back without a single job.
    const title = "uploaded while Redis is down";
    const refused = await uploadWithPause(stack.apiUrl, session, source, title, () => redis.down());
    const text = await refused.text();
    expect(refused.status, text).toBe(503);
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(text) as Record<string, unknown>;
    expect(problem).toMatchObject({ status: 503 });
    expect(problem.requestId).toEqual(expect.any(String));
    // Nothing of the cause reaches the client: no host, port, driver error or stack.
    expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|ioredis|redis:\/\/|\bat .+\.(ts|js):\d+/i);
    const kept = await stack.db.select().from(tracks).where(eq(tracks.title, title));
    expect(kept).toEqual([]);

    await redis.up();
    const after = (await uploadTrack(stack.apiUrl, session, source, "after the outage")).track;
    // The converting track finishes on its own; the waiting one's job was lost with Redis and
    // comes back through the reconciler.
    for (const track of [converting, waiting, after]) await readyRow(stack, track.id);
    await expectConsistent(stack);
  });
});

describe("Postgres restarted while converting", () => {
  it("the attempt that lost the database is retried and the track ends READY", async () => {
    const transcoder = await stack.startTranscoder();
    const { track } = await uploadTrack(stack.apiUrl, session, source, "database restarted");
    const row = await stack.trackRow(track.id);
    const jobId = audioJobId(track.id, row?.sourceFileName ?? "");
    await ffmpegRunning(transcoder);

    await postgres.down();
    // Down until the running attempt has needed it (its commit) and failed: BullMQ holds the
    // job for its backoff. Then Postgres comes back on the same port with the same data.
    await until(
      "the attempt to fail and wait for its retry",
      async () => (await stack.queue.getJobState(jobId)) === "delayed",
      { timeoutMs: 60_000 },
    );
    await postgres.up();

    const ready = await readyRow(stack, track.id);
    expect(ready.processingAttempts).toBeGreaterThanOrEqual(2);
    expect((await completedJob(stack, jobId))?.attemptsMade).toBeGreaterThanOrEqual(2);
    await expectConsistent(stack);
  });
});
