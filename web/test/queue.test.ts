import { describe, expect, test } from "vitest";
import {
  downsample,
  gainFactor,
  nextIndex,
  previousTarget,
  qualityLabel,
  RESTART_AFTER_SECONDS,
} from "../src/player/queue.ts";

describe("the queue's rules", () => {
  test("next goes one on and stops after the last", () => {
    expect(nextIndex(0, 3)).toBe(1);
    expect(nextIndex(2, 3)).toBeNull();
    expect(nextIndex(-1, 0)).toBeNull();
  });

  test("previous restarts a track that has played a while, else goes one back", () => {
    expect(previousTarget(2, RESTART_AFTER_SECONDS + 1)).toEqual({ index: 2, restart: true });
    expect(previousTarget(2, 1)).toEqual({ index: 1, restart: false });
    expect(previousTarget(0, 1)).toEqual({ index: 0, restart: true });
    expect(previousTarget(-1, 0)).toBeNull();
  });
});

describe("loudness and quality", () => {
  test("the gain in dB becomes a linear factor; none when unknown", () => {
    expect(gainFactor(0)).toBe(1);
    expect(gainFactor(-6)).toBeCloseTo(0.501, 3);
    expect(gainFactor(3)).toBeCloseTo(1.413, 3);
    expect(gainFactor(null)).toBe(1);
    expect(gainFactor(undefined)).toBe(1);
    expect(gainFactor(Number.NaN)).toBe(1);
  });

  test("a bitrate reads as kbps", () => {
    expect(qualityLabel(196_000)).toBe("196 kbps");
    expect(qualityLabel(127_600)).toBe("128 kbps");
    expect(qualityLabel(undefined)).toBeNull();
  });
});

describe("the waveform's bars", () => {
  test("keeps the highest peak of each slice", () => {
    expect(downsample([0.1, 0.9, 0.2, 0.3, 0.5, 0.4], 3)).toEqual([0.9, 0.3, 0.5]);
    expect(downsample([0.1, 0.2], 5)).toEqual([0.1, 0.2]);
    expect(downsample([], 5)).toEqual([]);
    expect(downsample([0.5], 0)).toEqual([]);
  });

  test("makes exactly the bars asked for from 2,000 points, covering them all", () => {
    const points = Array.from({ length: 2000 }, (_, i) => (i === 1999 ? 1 : 0.1));
    const bars = downsample(points, 160);
    expect(bars).toHaveLength(160);
    expect(bars.at(-1)).toBe(1);
    expect(Math.max(...bars.slice(0, -1))).toBe(0.1);
  });
});
