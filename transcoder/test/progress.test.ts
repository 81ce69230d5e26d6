import { describe, expect, it } from "vitest";
import { parseLoudness } from "../src/ffmpeg/loudness.ts";
import { fractionDone, progressParser } from "../src/ffmpeg/progress.ts";
import { progressReporter } from "../src/progress-reporter.ts";

const BLOCK = (us: string, state = "continue") =>
  `bitrate=N/A\ntotal_size=N/A\nout_time_us=${us}\nout_time_ms=${us}\nout_time=00:00:01.000000\nspeed=5x\nprogress=${state}\n`;

describe("progressParser", () => {
  it("reports the output position at the end of each block", () => {
    const seen: number[] = [];
    const feed = progressParser((s) => seen.push(s));
    feed(BLOCK("1500000") + BLOCK("3000000") + BLOCK("12000000", "end"));
    expect(seen).toEqual([1.5, 3, 12]);
  });

  it("copes with lines split across chunks", () => {
    const seen: number[] = [];
    const feed = progressParser((s) => seen.push(s));
    const text = BLOCK("2500000");
    for (const char of text) feed(char);
    expect(seen).toEqual([2.5]);
  });

  it("skips blocks without a position yet (N/A before the first packet)", () => {
    const seen: number[] = [];
    progressParser((s) => seen.push(s))(`out_time_us=N/A\nout_time_ms=N/A\nprogress=continue\n`);
    expect(seen).toEqual([]);
  });

  it("turns a position into a share of the expected duration, clamped", () => {
    expect(fractionDone(3, 12)).toBe(0.25);
    expect(fractionDone(13, 12)).toBe(1);
    expect(fractionDone(3, 0)).toBe(0);
  });
});

describe("progressReporter", () => {
  it("writes at most once per interval, never backwards, and settles the last write", async () => {
    let now = 0;
    const writes: number[] = [];
    const reporter = progressReporter({
      intervalMs: 2000,
      now: () => now,
      write: async (p) => {
        writes.push(p);
      },
    });
    reporter.report(5);
    reporter.report(10); // same instant: dropped
    await reporter.settle();
    now = 1999;
    reporter.report(30); // too soon
    now = 2000;
    reporter.report(40.7);
    await reporter.settle();
    now = 5000;
    reporter.report(20); // backwards: dropped
    now = 9000;
    reporter.report(150); // clamped
    await reporter.settle();
    expect(writes).toEqual([5, 40, 100]);
  });

  it("a failed write does not fail the conversion", async () => {
    const reporter = progressReporter({
      intervalMs: 0,
      write: async () => {
        throw new Error("redis down");
      },
    });
    reporter.report(50);
    await expect(reporter.settle()).resolves.toBeUndefined();
  });
});

describe("parseLoudness", () => {
  const summary = (
    i: string,
    peak: string,
  ) => `[Parsed_ebur128_0 @ 0x1] t: 11.9 M: -20 S: -20 I: -19.0 LUFS
[Parsed_ebur128_0 @ 0x1] Summary:

  Integrated loudness:
    I:         ${i} LUFS
    Threshold: -36.1 LUFS

  Loudness range:
    LRA:         0.1 LU

  True peak:
    Peak:      ${peak} dBFS
`;

  it("reads integrated loudness and true peak from the summary, not the frame lines", () => {
    expect(parseLoudness(summary("-26.1", "-12.3"))).toEqual({
      integratedLufs: -26.1,
      truePeakDbtp: -12.3,
    });
    expect(parseLoudness(summary("-8.0", "0.4"))).toEqual({
      integratedLufs: -8,
      truePeakDbtp: 0.4,
    });
  });

  it("gives nulls for silence (ffmpeg's -70 LUFS floor and -inf peak)", () => {
    expect(parseLoudness(summary("-70.0", "-inf"))).toEqual({
      integratedLufs: null,
      truePeakDbtp: null,
    });
  });

  it("returns null without a summary", () => {
    expect(parseLoudness("Stream mapping: ...\n")).toBeNull();
  });
});
