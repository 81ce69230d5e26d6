import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { audioJobId, trackKeys } from "@edge-music/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness } from "./support/harness.ts";
import { makeAudio, tempDir } from "./support/sources.ts";

const exec = promisify(execFile);
const h = createHarness();
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
  it("kills ffmpeg after the timeout, cleans up and leaves the job to be retried", async (context) => {
    const { enqueue, transcoder, queue } = await h.startQueue(context, {
      config: { SHUTDOWN_TIMEOUT_MS: "1000" },
      deps: { workRoot: workRoot.path, progressIntervalMs: 200 },
    });
    const track = await h.makeTrack(join(dir.path, "long.wav"));
    await enqueue(track, { backoff: { type: "fixed", delay: 60_000 } });
    // ffmpeg is running once progress moves past the probe.
    await h.waitForTrack(track.trackId, (r) => r.processingProgress > 5, 60_000);
    expect(await processesUsing(workRoot.path)).not.toEqual([]);

    const started = Date.now();
    await transcoder.close();
    expect(Date.now() - started).toBeLessThan(4_000);

    expect(await processesUsing(workRoot.path)).toEqual([]);
    expect(await readdir(workRoot.path)).toEqual([]);
    const row = await h.track(track.trackId);
    expect(row).toMatchObject({
      processingStatus: "PROCESSING",
      processingAttempts: 1,
      processingError: "ffmpeg interrupted (the transcoder is shutting down)",
    });
    const jobId = audioJobId(track.trackId, track.sourceFileName);
    expect(await queue.getJobState(jobId)).toBe("delayed");
    // Nothing was published, the source is still there for the retry.
    const objects = await h.listObjects(trackKeys(track.trackId).prefix);
    expect(objects.map((o) => o.key)).toEqual([track.sourceKey]);
  }, 120_000);
});
