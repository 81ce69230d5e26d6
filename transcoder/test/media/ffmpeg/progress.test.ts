import { describe, expect, it } from "vitest";
import { fractionDone, progressParser } from "../../../src/media/ffmpeg/progress.ts";

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
