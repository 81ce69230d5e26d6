import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { trackKeys } from "@edge-music/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createHarness } from "../support/harness.ts";
import { expectOutputs, getText } from "../support/outputs.ts";
import { makeFromFilter, tempDir } from "../support/sources.ts";

const MINUTES = 30;

const h = createHarness();
let dir: Awaited<ReturnType<typeof tempDir>>;
let source: string;

beforeAll(async () => {
  dir = await tempDir();
  source = join(dir.path, "half-hour-silence.wav");
  // 8 kHz mono IMA ADPCM (a voice recorder's format): 32 kbps, 7 MB, cheap to make and convert.
  // Its last block is padded: it reads 30:00.16, over the default 30-minute limit.
  const silence = `anullsrc=r=8000:cl=mono:d=${MINUTES * 60}`;
  await makeFromFilter(source, silence, ["-c:a", "adpcm_ima_wav"]);
});
afterAll(async () => {
  await h.close();
  await dir.remove();
});

/** Resident memory of this process and of its ffmpeg children, MB, sampled until stopped. */
function sampleMemory() {
  const peaks = { node: 0, ffmpeg: 0 };
  const timer = setInterval(async () => {
    peaks.node = Math.max(peaks.node, process.memoryUsage().rss / 2 ** 20);
    for (const pid of await readdir("/proc").catch(() => [])) {
      const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
      if (!/^Name:\s+ffmpeg$/m.test(status)) continue;
      if (Number(/^PPid:\s+(\d+)$/m.exec(status)?.[1]) !== process.pid) continue;
      const kb = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
      peaks.ffmpeg = Math.max(peaks.ffmpeg, kb / 1024);
    }
  }, 200);
  return { peaks, stop: () => clearInterval(timer) };
}

it("a 30-minute source (silence) → READY, one 32 variant, no gain, memory flat", async (context) => {
  const { enqueue, settle } = await h.startQueue(context);
  const track = await h.makeTrack(source);
  const before = process.memoryUsage().rss / 2 ** 20;
  const memory = sampleMemory();
  await enqueue(track);
  const row = await settle(track, { ms: 240_000 });
  memory.stop();

  expect(row.processingError).toBeNull();
  expect(row.processingStatus).toBe("READY");
  expect(Math.abs((row.duration ?? 0) - MINUTES * 60)).toBeLessThan(0.5);
  expect(row.loudnessLufs).toBeNull();
  const { segments } = await expectOutputs(h, track.trackId, [32]);
  expect(segments).toBeGreaterThanOrEqual((MINUTES * 60) / 4);
  // Flat: bounded by buffers, not by the length. Decoded, the half hour is 690 MB of float stereo;
  // the source alone is 7 MB and the outputs 15 MB. (Linux: ffmpeg's peaks are read from /proc.)
  expect(memory.peaks.ffmpeg).toBeGreaterThan(0);
  expect(memory.peaks.ffmpeg).toBeLessThan(150);
  expect(memory.peaks.node - before).toBeLessThan(64);
  const master = await getText(h, trackKeys(track.trackId).master);
  expect(master).not.toContain("#EXT-X-SESSION-DATA");
}, 300_000);
