import { VARIANT_BITRATES } from "@edge-music/contracts";
import { describe, expect, it } from "vitest";
import { isLossless, selectRungs } from "../../src/media/rungs.ts";

describe("selectRungs", () => {
  it.each([
    ["CD audio (1411 kbps, in any container) gets every rung", 1411.2, [128, 192, 320]],
    ["320 kbps gets every rung", 320, [128, 192, 320]],
    ["a VBR average a hair under 320 stops at 192: never above the source", 319.4, [128, 192]],
    ["192 kbps gets 128 and 192 (spec example)", 192, [128, 192]],
    ["191.9 kbps gets 128 only", 191.9, [128]],
    ["256 kbps AAC stops at 192", 256, [128, 192]],
    ["160 kbps gets 128 only", 160, [128]],
    ["128 kbps (8 kHz mono 16-bit PCM) gets 128", 128, [128]],
    ["127.9 kbps gets one 96 variant", 127.9, [96]],
    ["a 96 kbps Opus gets one 96 variant", 96, [96]],
    ["a 64 kbps MP3 gets one 64 variant", 64, [64]],
    ["an 84 kbps VBR average gets 64", 84, [64]],
    ["48 kbps gets 48", 48, [48]],
    ["32 kbps gets 32", 32, [32]],
    ["a 12.2 kbps voice memo still gets 32: a track that plays is not refused", 12.2, [32]],
    ["an unmeasurable bitrate (0) gets 32", 0, [32]],
  ])("%s", (_, kbps, rungs) => {
    expect(selectRungs({ kbps })).toEqual(rungs);
  });

  it("names only rates a stream URL may carry", () => {
    for (const kbps of [0, 20, 40, 50, 70, 100, 150, 200, 400, 9216]) {
      for (const rung of selectRungs({ kbps })) expect(VARIANT_BITRATES).toContain(rung);
    }
  });

  it("knows the lossless codecs", () => {
    for (const codec of ["pcm_s16le", "pcm_f32le", "flac", "alac", "wavpack", "ape", "tta"]) {
      expect(isLossless(codec), codec).toBe(true);
    }
    for (const codec of ["mp3", "aac", "vorbis", "opus"])
      expect(isLossless(codec), codec).toBe(false);
  });
});
