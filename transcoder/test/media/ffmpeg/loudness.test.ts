import { describe, expect, it } from "vitest";
import { parseLoudness } from "../../../src/media/ffmpeg/loudness.ts";

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
