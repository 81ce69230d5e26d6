import type { AudioFormat } from "@edge-music/contracts";
import { describe, expect, it } from "vitest";
import {
  COVER_MAX_SIDE,
  coverArgs,
  DEMUXERS,
  durationArgs,
  hlsArgs,
  opusArgs,
  packetArgs,
  probeArgs,
  wholeAacArgs,
} from "../../../src/media/ffmpeg/args.ts";

const source = { path: "/w/source.mp3", format: "mp3" as const };
const base = { source, outDir: "/w/out", duration: 241.5 };
/** How every run opens the source: its sniffed format's demuxer, local files only. */
const OPEN_MP3 = ["-protocol_whitelist", "file", "-f", "mp3"];

const HEAD = ["-hide_banner", "-nostdin", "-y"];
const HLS_FLAGS = [
  "-f",
  "hls",
  "-hls_time",
  "4",
  "-hls_playlist_type",
  "vod",
  "-hls_segment_type",
  "fmp4",
];

describe("hlsArgs", () => {
  it("one rung: the init segment is named plainly (ffmpeg does not expand %v there)", () => {
    const { args, cwd } = hlsArgs({ ...base, rungs: [128] });
    expect(cwd).toBe("/w/out/hls/128");
    expect(args).toEqual([
      ...HEAD,
      "-v",
      "error",
      "-progress",
      "pipe:1",
      "-nostats",
      "-t",
      "241.500000",
      ...OPEN_MP3,
      "-i",
      "/w/source.mp3",
      "-map",
      "0:a:0",
      "-c:a",
      "aac",
      "-ar",
      "44100",
      "-ac",
      "2",
      "-rematrix_maxval",
      "1",
      "-b:a:0",
      "128k",
      ...HLS_FLAGS,
      "-hls_fmp4_init_filename",
      "init_0.mp4",
      "-hls_segment_filename",
      "/w/out/hls/%v/segment_%05d.m4s",
      "-var_stream_map",
      "a:0,name:128",
      "/w/out/hls/%v/index.m3u8",
    ]);
  });

  it("two rungs: one map and one bitrate per rung, init reached from the first rung's folder", () => {
    const { args, cwd } = hlsArgs({ ...base, rungs: [128, 192] });
    expect(cwd).toBe("/w/out/hls/128");
    expect(args).toEqual([
      ...HEAD,
      "-v",
      "error",
      "-progress",
      "pipe:1",
      "-nostats",
      "-t",
      "241.500000",
      ...OPEN_MP3,
      "-i",
      "/w/source.mp3",
      "-map",
      "0:a:0",
      "-map",
      "0:a:0",
      "-c:a",
      "aac",
      "-ar",
      "44100",
      "-ac",
      "2",
      "-rematrix_maxval",
      "1",
      "-b:a:0",
      "128k",
      "-b:a:1",
      "192k",
      ...HLS_FLAGS,
      "-hls_fmp4_init_filename",
      "../%v/init_0.mp4",
      "-hls_segment_filename",
      "/w/out/hls/%v/segment_%05d.m4s",
      "-var_stream_map",
      "a:0,name:128 a:1,name:192",
      "/w/out/hls/%v/index.m3u8",
    ]);
  });

  it("three rungs: the whole ladder in one run, -t before -i, the stream map as ONE argument", () => {
    const { args } = hlsArgs({ ...base, rungs: [128, 192, 320] });
    expect(args.filter((a) => a === "-map")).toHaveLength(3);
    expect(args.slice(args.indexOf("-b:a:0"), args.indexOf("-b:a:0") + 6)).toEqual([
      "-b:a:0",
      "128k",
      "-b:a:1",
      "192k",
      "-b:a:2",
      "320k",
    ]);
    expect(args.indexOf("-t")).toBeLessThan(args.indexOf("-i"));
    expect(args[args.indexOf("-var_stream_map") + 1]).toBe(
      "a:0,name:128 a:1,name:192 a:2,name:320",
    );
    expect(args[args.indexOf("-hls_fmp4_init_filename") + 1]).toBe("../%v/init_0.mp4");
    expect(args.at(-1)).toBe("/w/out/hls/%v/index.m3u8");
  });

  it("refuses an empty ladder", () => {
    expect(() => hlsArgs({ ...base, rungs: [] })).toThrow();
  });
});

describe("opusArgs", () => {
  it("one Opus output per rung and the loudness scan of the stereo downmix as a null output, all bounded by -t", () => {
    expect(opusArgs({ ...base, rungs: [128, 320] })).toEqual([
      ...HEAD,
      "-v",
      "info",
      "-progress",
      "pipe:1",
      "-nostats",
      "-t",
      "241.500000",
      ...OPEN_MP3,
      "-i",
      "/w/source.mp3",
      ...["-map", "0:a:0", "-c:a", "libopus", "-b:a", "128k", "-ar", "48000", "-ac", "2"],
      ...["-rematrix_maxval", "1", "-f", "opus", "/w/out/audio/128k.opus"],
      ...["-map", "0:a:0", "-c:a", "libopus", "-b:a", "320k", "-ar", "48000", "-ac", "2"],
      ...["-rematrix_maxval", "1", "-f", "opus", "/w/out/audio/320k.opus"],
      ...["-map", "0:a:0", "-rematrix_maxval", "1"],
      ...["-filter:a", "aformat=channel_layouts=stereo,ebur128=peak=true:framelog=verbose"],
      ...["-f", "null", "-"],
    ]);
  });

  it("with a waveform file, its 8 kHz mono s16 PCM as one more output, before the scan", () => {
    const args = opusArgs({ ...base, rungs: [128], waveform: "/w/out/waveform.pcm" });
    const scan = args.lastIndexOf("-map");
    expect(args.slice(args.indexOf("/w/out/audio/128k.opus") + 1, scan)).toEqual([
      ...["-map", "0:a:0", "-c:a", "pcm_s16le", "-ar", "8000", "-ac", "1"],
      ...["-rematrix_maxval", "1", "-f", "s16le", "/w/out/waveform.pcm"],
    ]);
    const plain = opusArgs({ ...base, rungs: [128] });
    expect(args.slice(scan)).toEqual(plain.slice(plain.lastIndexOf("-map")));
  });
});

describe("coverArgs", () => {
  it("the attached picture's one frame, fitted in 1200 × 1200 (never enlarged), as a JPEG; the decoder's pixel limit before the input", () => {
    expect(COVER_MAX_SIDE).toBe(1200);
    expect(coverArgs({ source, stream: 2, output: "/w/cover.jpg" })).toEqual([
      ...HEAD,
      ...["-v", "error", "-max_pixels", "36000000"],
      ...[...OPEN_MP3, "-i", "/w/source.mp3"],
      ...["-map", "0:2", "-frames:v", "1"],
      "-filter:v",
      "scale=w='min(1200,iw)':h='min(1200,ih)':force_original_aspect_ratio=decrease:flags=lanczos,format=yuvj420p",
      ...["-c:v", "mjpeg", "-q:v", "3", "-f", "mjpeg", "/w/cover.jpg"],
    ]);
  });
});

describe("ffprobe argv", () => {
  it("probes as JSON with warnings kept, packets as CSV, durations as a bare number", () => {
    const flac = { path: "/w/s", format: "flac" as const };
    const openFlac = ["-protocol_whitelist", "file", "-f", "flac"];
    expect(probeArgs(flac)).toEqual([
      ...["-v", "warning", "-print_format", "json", "-show_format", "-show_streams"],
      ...[...openFlac, "/w/s"],
    ]);
    expect(packetArgs(flac)).toEqual([
      ...["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=duration_time,size"],
      ...["-print_format", "csv=p=0", ...openFlac, "/w/s"],
    ]);
    expect(wholeAacArgs("/w/out/hls/128/index.m3u8", "/w/out/audio/128k.m4a")).toEqual([
      ...["-hide_banner", "-nostdin", "-y", "-v", "error"],
      ...["-protocol_whitelist", "file", "-f", "hls", "-i", "/w/out/hls/128/index.m3u8"],
      ...["-map", "0:a:0", "-c", "copy", "-movflags", "+faststart", "-f", "mp4"],
      "/w/out/audio/128k.m4a",
    ]);
    expect(durationArgs("/w/o.opus")).toEqual([
      ...["-v", "error", "-show_entries", "format=duration", "-print_format", "csv=p=0"],
      "/w/o.opus",
    ]);
  });
});

describe("how the source is opened", () => {
  it("names ffmpeg's demuxer of each sniffed format (ISO media: mov; Opus: ogg)", () => {
    expect(DEMUXERS).toEqual({
      mp3: "mp3",
      wav: "wav",
      flac: "flac",
      m4a: "mov",
      ogg: "ogg",
      opus: "ogg",
    });
  });

  it.each(Object.keys(DEMUXERS) as AudioFormat[])(
    "%s: every run forces the demuxer and local files only, before the source",
    (format) => {
      const file = { path: "/w/source", format };
      const opened = ["-protocol_whitelist", "file", "-f", DEMUXERS[format]];
      const runs = {
        hls: hlsArgs({ ...base, source: file, rungs: [128] }).args,
        opus: opusArgs({ ...base, source: file, rungs: [128] }),
        probe: probeArgs(file),
        packets: packetArgs(file),
        cover: coverArgs({ source: file, stream: 1, output: "/w/cover.jpg" }),
      };
      for (const [run, args] of Object.entries(runs)) {
        const at = args.indexOf("/w/source");
        // Exactly one input, opened as sniffed: ffmpeg reads the path after `-i`, ffprobe last.
        expect(
          args.filter((a) => a === "/w/source"),
          run,
        ).toHaveLength(1);
        const before = args.slice(0, at);
        const options = before.at(-1) === "-i" ? before.slice(0, -1) : before;
        expect(options.slice(-4), run).toEqual(opened);
        expect(
          args.filter((a) => a === "-protocol_whitelist"),
          run,
        ).toHaveLength(1);
        expect(args.filter((a) => a === "-i").length, run).toBe(
          run === "probe" || run === "packets" ? 0 : 1,
        );
      }
    },
  );
});
