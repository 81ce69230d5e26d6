import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { playbackGainDb } from "@edge-music/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkOutputs } from "../src/checks.ts";
import { convert, finishOutputs } from "../src/convert.ts";
import { masterPlaylist, measureBandwidth } from "../src/hls/master.ts";
import {
  type MediaPlaylist,
  parseMediaPlaylist,
  raiseTargetDuration,
  rewriteInitUri,
} from "../src/hls/media.ts";
import { makeAudio, tempDir } from "./support/sources.ts";

const FFMPEG_PLAYLIST = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-TARGETDURATION:4
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PLAYLIST-TYPE:VOD
#EXT-X-MAP:URI="../192/init_0.mp4"
#EXTINF:4.017052,
segment_00000.m4s
#EXTINF:3.993832,
segment_00001.m4s
#EXTINF:0.037007,
segment_00002.m4s
#EXT-X-ENDLIST
`;

describe("media playlists", () => {
  it("reads target duration, init URI, segments and the end marker", () => {
    const playlist = parseMediaPlaylist(FFMPEG_PLAYLIST);
    expect(playlist.targetDuration).toBe(4);
    expect(playlist.mapUri).toBe("../192/init_0.mp4");
    expect(playlist.ended).toBe(true);
    expect(playlist.segments.map((s) => [s.uri, s.extinf])).toEqual([
      ["segment_00000.m4s", "4.017052"],
      ["segment_00001.m4s", "3.993832"],
      ["segment_00002.m4s", "0.037007"],
    ]);
  });

  it("points every rendition at the init segment beside it", () => {
    const text = rewriteInitUri(FFMPEG_PLAYLIST);
    expect(text).toContain('#EXT-X-MAP:URI="init_0.mp4"\n');
    expect(text.replace('"init_0.mp4"', '"../192/init_0.mp4"')).toBe(FFMPEG_PLAYLIST);
  });

  it("gives a sub-second track a target duration of 1 (ffmpeg writes 0, players refuse it)", () => {
    const tiny = FFMPEG_PLAYLIST.replace("TARGETDURATION:4", "TARGETDURATION:0")
      .replace(/#EXTINF:[\s\S]*segment_00000\.m4s\n/, "#EXTINF:0.323220,\nsegment_00000.m4s\n")
      .replace(/#EXTINF:3[\s\S]*segment_00002\.m4s\n/, "");
    const raised = raiseTargetDuration(tiny);
    expect(raised).toBe(tiny.replace("TARGETDURATION:0", "TARGETDURATION:1"));
    expect(parseMediaPlaylist(raised).targetDuration).toBe(1);
    expect(raiseTargetDuration(FFMPEG_PLAYLIST)).toBe(FFMPEG_PLAYLIST);
    const ten = FFMPEG_PLAYLIST.replace("TARGETDURATION:4", "TARGETDURATION:10");
    expect(raiseTargetDuration(ten)).toBe(ten);
  });
});

describe("checkOutputs", () => {
  const good = parseMediaPlaylist(rewriteInitUri(FFMPEG_PLAYLIST));
  const total = 4.017052 + 3.993832 + 0.037007;
  const renditions = (...lists: MediaPlaylist[]) =>
    lists.map((playlist, i) => ({ rung: [128, 192, 320][i] ?? 0, playlist }));
  const opus = [{ rung: 128, duration: total }];

  it("accepts aligned renditions and outputs as long as the source", () => {
    expect(checkOutputs({ duration: total, renditions: renditions(good, good), opus })).toBeNull();
  });

  it("calls a short output a damaged source (ffmpeg exits 0 on truncated input)", () => {
    expect(checkOutputs({ duration: 16, renditions: renditions(good), opus })).toMatch(
      /damaged or truncated: only 8\.0 s of 16\.0 s/,
    );
    const shortOpus = [{ rung: 128, duration: 3 }];
    expect(
      checkOutputs({ duration: total, renditions: renditions(good), opus: shortOpus }),
    ).toMatch(/only 3\.0 s .*Opus 128k/);
  });

  it("refuses renditions that are not aligned, over-long segments and odd names", () => {
    const shifted = parseMediaPlaylist(
      rewriteInitUri(FFMPEG_PLAYLIST)
        .replace("3.993832", "3.970612")
        .replace("0.037007", "0.060227"),
    );
    expect(checkOutputs({ duration: total, renditions: renditions(good, shifted), opus })).toMatch(
      /rendition 192 is not aligned/,
    );
    const long = parseMediaPlaylist(rewriteInitUri(FFMPEG_PLAYLIST).replace("4.017052", "4.6"));
    expect(checkOutputs({ duration: total, renditions: renditions(long), opus })).toMatch(
      /4\.6 s segment/,
    );
    const renamed = parseMediaPlaylist(FFMPEG_PLAYLIST.replace("segment_00001", "segment_00007"));
    expect(checkOutputs({ duration: total, renditions: renditions(renamed), opus })).toMatch(
      /unexpected segment name at position 1/,
    );
    const open = parseMediaPlaylist(FFMPEG_PLAYLIST.replace("#EXT-X-ENDLIST\n", ""));
    expect(checkOutputs({ duration: total, renditions: renditions(open), opus })).toMatch(
      /incomplete/,
    );
  });
});

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
