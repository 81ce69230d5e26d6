import { describe, expect, it } from "vitest";
import { masterPlaylist, measureBandwidth } from "../../../src/media/hls/master-playlist.ts";

describe("master playlist", () => {
  const variant = (rung: number, sizes: number[]) => ({
    rung,
    targetDuration: 4,
    segments: sizes.map((bytes, i) => ({ bytes, duration: i === sizes.length - 1 ? 0.04 : 4 })),
  });

  it("peak over 0.5–1.5 target durations (a 40 ms tail is judged with its neighbour)", () => {
    // 4 s segments of 50 000, 60 000 and 40 000 bytes, then a 40 ms tail of 2 000 bytes.
    const { peak, average } = measureBandwidth(variant(128, [50_000, 60_000, 40_000, 2_000]));
    expect(peak).toBe(120_000);
    expect(average).toBe(Math.ceil((152_000 * 8) / 12.04));
  });

  it("lists the renditions by bandwidth with measured figures and the AAC-LC codec", () => {
    const text = masterPlaylist([
      variant(320, [125_000, 125_000, 1_000]),
      variant(128, [64_000, 64_000, 500]),
    ]);
    expect(text).toBe(
      [
        "#EXTM3U",
        "#EXT-X-VERSION:7",
        "#EXT-X-INDEPENDENT-SEGMENTS",
        `#EXT-X-STREAM-INF:BANDWIDTH=128000,AVERAGE-BANDWIDTH=${Math.ceil((128_500 * 8) / 8.04)},CODECS="mp4a.40.2"`,
        "128/index.m3u8",
        `#EXT-X-STREAM-INF:BANDWIDTH=250000,AVERAGE-BANDWIDTH=${Math.ceil((251_000 * 8) / 8.04)},CODECS="mp4a.40.2"`,
        "320/index.m3u8",
        "",
      ].join("\n"),
    );
  });

  it("carries the playback gain as session data, with one decimal; none without one", () => {
    const variants = [variant(128, [64_000, 64_000, 500])];
    const gain = '#EXT-X-SESSION-DATA:DATA-ID="com.edge-music.gain"';
    expect(masterPlaylist(variants, -6.25).split("\n").slice(0, 5)).toEqual([
      "#EXTM3U",
      "#EXT-X-VERSION:7",
      "#EXT-X-INDEPENDENT-SEGMENTS",
      `${gain},VALUE="-6.3"`,
      expect.stringMatching(/^#EXT-X-STREAM-INF:/),
    ]);
    expect(masterPlaylist(variants, 3)).toContain(`${gain},VALUE="3.0"\n`);
    expect(masterPlaylist(variants, 0)).toContain(`${gain},VALUE="0.0"\n`);
    expect(masterPlaylist(variants, null)).not.toContain("SESSION-DATA");
  });

  it("a track shorter than half a segment declares its average as its peak", () => {
    const tiny = { rung: 128, targetDuration: 4, segments: [{ bytes: 10_000, duration: 1 }] };
    expect(measureBandwidth(tiny)).toEqual({ peak: 80_000, average: 80_000 });
  });
});
