import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AUDIO_PROCESSING_JOB_NAME } from "@edge-music/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, TEST_JOB_OPTIONS } from "../support/harness.ts";
import { tempDir } from "../support/sources.ts";

const h = createHarness();
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir();
  await writeFile(join(dir.path, "notes.mp3"), "These are my lyrics, not audio.\n".repeat(200));
});
afterAll(async () => {
  await h.close();
  await dir.remove();
});

describe("the processor: an attempt's end in BullMQ's terms", () => {
  it("bad input fails the job at once, with the reason as BullMQ's failedReason", async (context) => {
    const { enqueue, settle, queue } = await h.startQueue(context);
    const track = await h.makeTrack(join(dir.path, "notes.mp3"));
    const job = await enqueue(track);
    expect(job.opts.attempts).toBeGreaterThan(1);
    expect((await settle(track)).processingStatus).toBe("FAILED");

    const failed = await queue.getJob(job.id ?? "");
    expect(await failed?.getState()).toBe("failed");
    expect(failed?.attemptsMade).toBe(1);
    expect(failed?.failedReason).toBe(
      "not a readable audio file (not MP3, WAV, FLAC, M4A, OGG or Opus)",
    );
  });

  it("a payload that is not a conversion job fails at once, before any track is touched", async (context) => {
    const { queue } = await h.startQueue(context);
    const job = await queue.add(
      AUDIO_PROCESSING_JOB_NAME,
      { trackId: "not-a-uuid" },
      { ...TEST_JOB_OPTIONS, jobId: `bad-payload-${crypto.randomUUID()}` },
    );
    const id = job.id ?? "";
    await expect.poll(() => queue.getJobState(id), { timeout: 10_000 }).toBe("failed");
    const failed = await queue.getJob(id);
    expect(failed?.attemptsMade).toBe(1);
    expect(failed?.failedReason).toBe("invalid conversion job payload");
  });
});
