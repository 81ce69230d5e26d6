import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { playbackGainDb } from "@edge-music/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convert, finishOutputs } from "../../src/media/convert.ts";
import { parseMediaPlaylist } from "../../src/media/hls/media-playlist.ts";
import { makeAudio, tempDir } from "../support/sources.ts";

describe("master playlist from a real ffmpeg run", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const rungs = [128, 192, 320];
  let master = "";
  let loudness: Awaited<ReturnType<typeof convert>>;

  beforeAll(async () => {
    dir = await tempDir();
    const source = { path: join(dir.path, "source.flac"), format: "flac" as const };
    await makeAudio(source.path, 20, ["-c:a", "flac"]);
    const outDir = join(dir.path, "out");
    const options = { source, outDir, rungs, duration: 20, timeoutMs: 120_000 };
    loudness = await convert(options);
    await finishOutputs({ ...options, loudness });
    master = await readFile(join(outDir, "hls/master.m3u8"), "utf8");
  }, 120_000);
  afterAll(() => dir.remove());

  /** Measured independently: file sizes on disk against the playlist's EXTINF. */
  async function measured(rung: number) {
    const folder = join(dir.path, "out/hls", String(rung));
    const playlist = parseMediaPlaylist(await readFile(join(folder, "index.m3u8"), "utf8"));
    const sizes = await Promise.all(
      playlist.segments.map(async (s) => (await stat(join(folder, s.uri))).size),
    );
    const seconds = playlist.segments.reduce((sum, s) => sum + s.duration, 0);
    const average = (sizes.reduce((a, b) => a + b, 0) * 8) / seconds;
    // Full-length segments only: the tail's rate is dominated by its header.
    const peak = Math.max(
      ...playlist.segments
        .map((s, i) => ({ s, bytes: sizes[i] ?? 0 }))
        .filter(({ s }) => s.duration > 3)
        .map(({ s, bytes }) => (bytes * 8) / s.duration),
    );
    const files = await readdir(folder);
    return { average, peak, files };
  }

  it("carries the gain that brings the measured loudness to -14 LUFS", () => {
    expect(loudness.integratedLufs).toBeLessThan(-14);
    const gain = playbackGainDb(loudness);
    expect(gain).toBeGreaterThan(0);
    expect(master).toContain(
      `#EXT-X-SESSION-DATA:DATA-ID="com.edge-music.gain",VALUE="${gain?.toFixed(1)}"\n`,
    );
  });

  it("declares BANDWIDTH and AVERAGE-BANDWIDTH within 10 % of what the files measure", async () => {
    const entries = [...master.matchAll(/BANDWIDTH=(\d+),AVERAGE-BANDWIDTH=(\d+).*\n(\d+)\//g)];
    expect(entries.map((m) => Number(m[3]))).toEqual(rungs);
    for (const [, peak, average, rung] of entries) {
      const real = await measured(Number(rung));
      expect(real.files).toContain("init_0.mp4");
      expect(Math.abs(Number(average) / real.average - 1), `average of ${rung}`).toBeLessThan(0.1);
      expect(Math.abs(Number(peak) / real.peak - 1), `peak of ${rung}`).toBeLessThan(0.1);
      expect(Number(peak)).toBeGreaterThanOrEqual(Number(average));
    }
  });
});
