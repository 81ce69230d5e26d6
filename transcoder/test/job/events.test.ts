import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness } from "../support/harness.ts";
import { makeAudio, tempDir } from "../support/sources.ts";

const h = createHarness();
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir();
  await makeAudio(join(dir.path, "take.mp3"), 8, ["-c:a", "libmp3lame", "-b:a", "128k"]);
  await writeFile(join(dir.path, "notes.mp3"), "These are my lyrics, not audio.\n".repeat(200));
}, 60_000);
afterAll(async () => {
  await h.close();
  await dir.remove();
});

describe("states published for live listeners", () => {
  it("a conversion: PROCESSING from attempt 1, progress that only grows, then READY", async (context) => {
    const { enqueue, settle } = await h.startQueue(context, { deps: { progressIntervalMs: 0 } });
    const track = await h.makeTrack(join(dir.path, "take.mp3"));
    await enqueue(track);
    expect((await settle(track)).processingStatus).toBe("READY");

    const states = await h.published(track.trackId);
    expect(states[0]).toEqual({
      processingStatus: "PROCESSING",
      processingProgress: 0,
      processingError: null,
      processingAttempts: 1,
    });
    expect(states.at(-1)).toEqual({
      processingStatus: "READY",
      processingProgress: 100,
      processingError: null,
      processingAttempts: 1,
    });
    const progress = states.map((s) => s.processingProgress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(states.length).toBeGreaterThan(3);
    expect(states.slice(0, -1).every((s) => s.processingStatus === "PROCESSING")).toBe(true);
  });

  it("bad input: FAILED with the reason the track shows", async (context) => {
    const { enqueue, settle } = await h.startQueue(context);
    const track = await h.makeTrack(join(dir.path, "notes.mp3"));
    await enqueue(track);
    const row = await settle(track);
    expect(row.processingStatus).toBe("FAILED");

    const last = (await h.published(track.trackId)).at(-1);
    expect(last).toEqual({
      processingStatus: "FAILED",
      processingProgress: row.processingProgress,
      processingError: row.processingError,
      processingAttempts: 1,
    });
  });
});
