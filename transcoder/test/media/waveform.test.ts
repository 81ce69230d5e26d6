import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { WAVEFORM_POINTS, Waveform } from "@edge-music/contracts";
import { describe, expect, it } from "vitest";
import { peaksOf, waveformFiles, writeWaveform } from "../../src/media/waveform.ts";
import { tempDir } from "../support/sources.ts";

/** Mono s16le PCM of the given samples. */
function pcm(samples: readonly number[]): Buffer {
  const buffer = Buffer.alloc(samples.length * 2);
  samples.forEach((sample, i) => {
    buffer.writeInt16LE(sample, i * 2);
  });
  return buffer;
}

/** The buffer cut into pieces of `size` bytes: odd sizes split samples between chunks. */
function chunks(buffer: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < buffer.length; at += size) pieces.push(buffer.subarray(at, at + size));
  return pieces;
}

describe("peaksOf", () => {
  it("takes each slice's loudest sample, either sign, relative to the loudest of all", async () => {
    // 4 slices of 3 samples.
    const samples = [100, -200, 50, 0, 16_384, -3, -8_192, 7, 1, 0, 0, 0];
    const expected = { peak: 0.5, peaks: [0.012, 1, 0.5, 0] };
    expect(await peaksOf([pcm(samples)], samples.length, 4)).toEqual(expected);
    // The same, whatever the chunking (a sample split over two chunks included).
    expect(await peaksOf(chunks(pcm(samples), 3), samples.length, 4)).toEqual(expected);
    expect(await peaksOf(chunks(pcm(samples), 1), samples.length, 4)).toEqual(expected);
  });

  it("reads full scale, negative, as 1", async () => {
    const result = await peaksOf([pcm([0, -32_768, 32_767, 0])], 4, 2);
    expect(result).toEqual({ peak: 1, peaks: [1, 1] });
  });

  it("rounds to three decimals, and keeps the peak of a very quiet track above 0", async () => {
    const samples = [3, 1, 2, 0];
    expect(await peaksOf([pcm(samples)], 4, 4)).toEqual({
      peak: 0.000092,
      peaks: [1, 0.333, 0.667, 0],
    });
  });

  it("gives every slice an even share when the length does not divide", async () => {
    // 2000 samples into 3 slices: 667, 667, 666; each slice's loudest at its last sample.
    const samples = Array.from({ length: 2_000 }, (_, i): number => (i === 666 ? 300 : 0));
    samples[1_333] = 600;
    samples[1_999] = 150;
    expect((await peaksOf([pcm(samples)], 2_000, 3)).peaks).toEqual([0.5, 1, 0.25]);
  });

  it("gives silence all zeros and a peak of 0", async () => {
    const silence = pcm(new Array(48_000).fill(0));
    const result = await peaksOf(chunks(silence, 4_096), 48_000);
    expect(result.peak).toBe(0);
    expect(result.peaks).toHaveLength(WAVEFORM_POINTS);
    expect(result.peaks.every((p) => p === 0)).toBe(true);
  });

  it("stretches a source shorter than the points: each sample repeated, the count exact", async () => {
    const result = await peaksOf([pcm([1_000, -2_000, 500])], 3, 10);
    expect(result.peaks).toEqual([0.5, 0.5, 0.5, 1, 1, 1, 0.25, 0.25, 0.25, 0.25]);
    expect(result.peak).toBeCloseTo(2_000 / 32_768, 6);
  });

  it("gives no samples all zeros", async () => {
    expect(await peaksOf([], 0)).toEqual({
      peak: 0,
      peaks: new Array(WAVEFORM_POINTS).fill(0),
    });
  });
});

describe("writeWaveform", () => {
  it("writes the contract's JSON from the PCM file, WAVEFORM_POINTS peaks", async () => {
    const dir = await tempDir();
    try {
      const outDir = join(dir.path, "out");
      await mkdir(outDir);
      // 1 s at 8 kHz: a ramp up to half scale.
      const samples = Array.from({ length: 8_000 }, (_, i) => Math.round((i / 8_000) * 16_384));
      await writeFile(waveformFiles(outDir).pcm, pcm(samples));
      const written = await writeWaveform(outDir, 1.25);
      const stored = Waveform.parse(JSON.parse(await readFile(waveformFiles(outDir).json, "utf8")));
      expect(stored).toEqual(written);
      expect(stored).toMatchObject({ version: 1, points: WAVEFORM_POINTS, duration: 1.25 });
      expect(stored.peaks).toHaveLength(WAVEFORM_POINTS);
      expect(stored.peak).toBeCloseTo(0.5, 3);
      expect(stored.peaks[0]).toBe(0);
      expect(stored.peaks[1_000]).toBe(0.5);
      expect(stored.peaks.at(-1)).toBe(1);
    } finally {
      await dir.remove();
    }
  });
});
