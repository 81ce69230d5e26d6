import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { trackKeys } from "@edge-music/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness } from "../support/harness.ts";
import {
  expectOutputs,
  getBytes,
  getText,
  getWaveform,
  head,
  playFromStorage,
  topLevelBoxes,
} from "../support/outputs.ts";
import { makeAudio, makeFromFilter, tempDir } from "../support/sources.ts";

/** Two whole 4-s segments and the tail the encoder's padding adds: every format's conversion in full. */
const SECONDS = 8;

interface Format {
  file: string;
  codec: string[];
  rungs: number[];
}

/** Every input format the spec names, with the ladder each must get. */
const FORMATS: Format[] = [
  { file: "cbr-320.mp3", codec: ["-c:a", "libmp3lame", "-b:a", "320k"], rungs: [128, 192, 320] },
  { file: "cbr-192.mp3", codec: ["-c:a", "libmp3lame", "-b:a", "192k"], rungs: [128, 192] },
  { file: "cbr-128.mp3", codec: ["-c:a", "libmp3lame", "-b:a", "128k"], rungs: [128] },
  // ~250 kbps on this signal.
  { file: "vbr.mp3", codec: ["-c:a", "libmp3lame", "-q:a", "0"], rungs: [128, 192] },
  // No Xing header: ffprobe guesses bitrate and duration from the first frame.
  {
    file: "vbr-no-xing.mp3",
    codec: ["-c:a", "libmp3lame", "-q:a", "0", "-write_xing", "0"],
    rungs: [128, 192],
  },
  { file: "pcm.wav", codec: ["-c:a", "pcm_s16le"], rungs: [128, 192, 320] },
  { file: "lossless.flac", codec: ["-c:a", "flac"], rungs: [128, 192, 320] },
  { file: "aac-256.m4a", codec: ["-c:a", "aac", "-b:a", "256k"], rungs: [128, 192] },
  { file: "vorbis.ogg", codec: ["-c:a", "libvorbis", "-q:a", "4"], rungs: [128] },
  // Below the ladder: one variant at the source's rate (CBR: a VBR 96k averages ~84 here).
  { file: "low.opus", codec: ["-c:a", "libopus", "-b:a", "96k", "-vbr", "off"], rungs: [96] },
];

const h = createHarness();
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir();
  await Promise.all(FORMATS.map((f) => makeAudio(join(dir.path, f.file), SECONDS, f.codec)));
}, 120_000);
afterAll(async () => {
  await h.close();
  await dir.remove();
});

describe.concurrent("conversion of each supported format", () => {
  it.for(FORMATS)(
    "$file → READY with rungs $rungs",
    { timeout: 120_000 },
    async ({ file, rungs }, context) => {
      const { enqueue, settle } = await h.startQueue(context);
      const track = await h.makeTrack(join(dir.path, file));
      await enqueue(track);
      const row = await settle(track);

      expect(row.processingError).toBeNull();
      expect(row.processingStatus).toBe("READY");
      expect(row.processingProgress).toBe(100);
      expect(row.processingAttempts).toBe(1);
      expect(row.processingStartedAt).toBeInstanceOf(Date);
      expect(row.processingFinishedAt?.getTime()).toBeGreaterThanOrEqual(
        row.processingStartedAt?.getTime() ?? Number.POSITIVE_INFINITY,
      );
      expect(Math.abs((row.duration ?? 0) - SECONDS)).toBeLessThan(0.1);
      expect(row.loudnessLufs).toBeGreaterThan(-40);
      expect(row.loudnessLufs).toBeLessThan(0);
      expect(row.truePeakDbtp).toBeLessThan(3);

      // The source is gone: object and key.
      expect(row.sourceKey).toBeNull();
      expect(await h.listObjects(trackKeys(track.trackId).source(""))).toEqual([]);

      const { segments } = await expectOutputs(h, track.trackId, rungs);
      expect(segments).toBe(Math.ceil(SECONDS / 4) + (SECONDS % 4 === 0 ? 1 : 0));

      const master = await getText(h, trackKeys(track.trackId).master);
      // Ordered by bandwidth, which here follows the rungs.
      expect(master.match(/^\d+\/index\.m3u8$/gm)).toEqual(rungs.map((r) => `${r}/index.m3u8`));
      expect(master.match(/BANDWIDTH=/g)).toHaveLength(rungs.length * 2);
      const playlist = await getText(h, trackKeys(track.trackId).playlist(rungs[0] ?? 0));
      expect(playlist).toContain('#EXT-X-MAP:URI="init_0.mp4"');

      const play = await tempDir();
      try {
        const played = await playFromStorage(h, track.trackId, play.path);
        expect(Math.abs(played - SECONDS)).toBeLessThan(0.2);
      } finally {
        await play.remove();
      }
    },
  );
});

describe("stored objects", () => {
  it("carry the content type and cache policy players and CDNs need", async (context) => {
    const { enqueue, settle } = await h.startQueue(context);
    const track = await h.makeTrack(join(dir.path, "cbr-128.mp3"));
    await enqueue(track);
    expect((await settle(track)).processingStatus).toBe("READY");
    const keys = trackKeys(track.trackId);
    const expected = [
      [keys.master, "application/vnd.apple.mpegurl", "public, max-age=60"],
      [keys.playlist(128), "application/vnd.apple.mpegurl", "public, max-age=60"],
      [keys.init(128), "audio/mp4", "public, max-age=31536000, immutable"],
      [keys.segment(128, 0), "audio/mp4", "public, max-age=31536000, immutable"],
      [keys.opus(128), "audio/ogg; codecs=opus", "public, max-age=31536000, immutable"],
      [keys.aac(128), "audio/mp4", "public, max-age=31536000, immutable"],
      [keys.waveform, "application/json", "public, max-age=31536000, immutable"],
    ] as const;
    for (const [key, contentType, cacheControl] of expected) {
      const object = await head(h, key);
      expect(object.ContentType, key).toBe(contentType);
      expect(object.CacheControl, key).toBe(cacheControl);
    }
    const rows = await h.fileRows(track.trackId);
    expect(rows.find((r) => r.storageKey === keys.opus(128))?.contentType).toBe(
      "audio/ogg; codecs=opus",
    );

    // The whole AAC file: its index (moov) before its media, as a player that seeks by Range
    // needs it, and as long as the source.
    const whole = await getBytes(h, keys.aac(128));
    expect(topLevelBoxes(whole).slice(0, 2)).toEqual(["ftyp", "moov"]);
    const path = join(dir.path, "whole-128k.m4a");
    await writeFile(path, whole);
    const { stdout } = await promisify(execFile)("ffprobe", [
      ...["-v", "error", "-show_entries", "stream=codec_name:format=duration"],
      ...["-print_format", "json", path],
    ]);
    const probed = JSON.parse(stdout) as {
      streams: Array<{ codec_name: string }>;
      format: { duration: string };
    };
    expect(probed.streams.map((s) => s.codec_name)).toEqual(["aac"]);
    expect(Number(probed.format.duration)).toBeCloseTo(SECONDS, 0);
  }, 90_000);
});

describe("waveform", () => {
  it("of a tone at −6 dBFS, then −12 dBFS: peak 0.5, the second half's peaks at half the first's", async (context) => {
    // The same tone in both channels: the mono mix keeps its level.
    const level = "if(lt(t,6),0.5,0.25)*sin(2*PI*440*t)";
    const file = join(dir.path, "tone.flac");
    const filter = `aevalsrc=exprs='${level}|${level}':c=stereo:s=44100:d=12`;
    await makeFromFilter(file, filter, ["-c:a", "flac"]);
    const { enqueue, settle } = await h.startQueue(context);
    const track = await h.makeTrack(file);
    await enqueue(track);
    const row = await settle(track);
    expect(row.processingStatus).toBe("READY");

    const waveform = await getWaveform(h, track.trackId);
    expect(waveform.version).toBe(1);
    expect(waveform.duration).toBe(row.duration);
    expect(Math.abs(waveform.peak - 0.5)).toBeLessThan(0.01);
    // Away from the step (slices of 6 ms; the resampler rings around it).
    const first = waveform.peaks.slice(50, 950);
    const second = waveform.peaks.slice(1_050, 1_950);
    for (const p of first) expect(p).toBeGreaterThan(0.97);
    for (const p of second) expect(Math.abs(p - 0.5)).toBeLessThan(0.02);
  }, 90_000);
});
