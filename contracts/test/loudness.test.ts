import { describe, expect, it } from "vitest";
import { playbackGainDb } from "../src/index.ts";

const gain = (integratedLufs: number | null, truePeakDbtp: number | null) =>
  playbackGainDb({ integratedLufs, truePeakDbtp });

describe("playbackGainDb", () => {
  it("brings a track to -14 LUFS when its peak allows it", () => {
    expect(gain(-20, -8)).toBe(6);
    expect(gain(-17.3, -6)).toBe(3.3);
    expect(gain(-14, -3)).toBe(0);
  });

  it("turns a loud track down to -14 LUFS", () => {
    expect(gain(-8, -0.2)).toBe(-6);
    expect(gain(-6.25, 0.5)).toBe(-7.8);
  });

  it("never lifts the true peak above -1 dBTP", () => {
    // A quiet master with a sharp transient: +10 dB would put its peak at +5 dBTP.
    expect(gain(-24, -5)).toBe(4);
    // A loud track with overs: turned down by more than its loudness asks for.
    expect(gain(-13, 1.5)).toBe(-2.5);
  });

  it("rounds down to a tenth, so that rounding can never break the ceiling", () => {
    expect(gain(-30, -3.27)).toBe(2.2);
    expect((gain(-30, -3.27) ?? 0) - 3.27).toBeLessThanOrEqual(-1);
    expect(gain(-16.35, -20)).toBe(2.3);
  });

  it("has no gain for silence, and no boost without a known peak", () => {
    expect(gain(null, null)).toBeNull();
    expect(gain(null, -40)).toBeNull();
    expect(gain(-20, null)).toBe(0);
    expect(gain(-10, null)).toBe(-4);
  });
});
