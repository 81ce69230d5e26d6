import { describe, expect, it } from "vitest";
import {
  AUDIO_PROCESSING_JOB_OPTIONS,
  AUDIO_PROCESSING_QUEUE,
  AUDIO_PROCESSING_QUEUE_PREFIX,
  AudioJobPayload,
  audioJobId,
  BITRATES,
  LOW_BITRATES,
  sanitizeFileName,
  trackKeys,
  VARIANT_BITRATES,
} from "../src/index.ts";

/** What Redis Cluster hashes: the text between the first `{` and the next `}`, if not empty. */
function hashedPart(key: string): string {
  const open = key.indexOf("{");
  const close = key.indexOf("}", open + 1);
  return open >= 0 && close > open + 1 ? key.slice(open + 1, close) : key;
}

describe("the conversion job contract", () => {
  it("puts every key of the queue in one Redis Cluster slot (a hash-tag prefix)", () => {
    const jobId = audioJobId("0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192", "a.mp3");
    // BullMQ's keys are <prefix>:<queue>:<suffix>; a script touches several at once.
    const keys = ["wait", "active", "meta", "events", jobId, `${jobId}:lock`].map(
      (suffix) => `${AUDIO_PROCESSING_QUEUE_PREFIX}:${AUDIO_PROCESSING_QUEUE}:${suffix}`,
    );
    expect(new Set(keys.map(hashedPart))).toEqual(new Set(["audio-processing"]));
  });

  it("names jobs convert-audio-<trackId>-<sourceFileName>", () => {
    const id = "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192";
    expect(audioJobId(id, "My Song.mp3")).toBe(`convert-audio-${id}-My_Song.mp3`);
  });

  it("sanitises file names to what job ids and keys allow", () => {
    expect(sanitizeFileName("../../etc/passwd")).toBe("passwd");
    expect(sanitizeFileName("C:\\music\\Dvořák: Largo.flac")).toBe("Dvorak_Largo.flac");
    expect(sanitizeFileName("a:b\u0000c\nd.wav")).toBe("a_b_c_d.wav");
    expect(sanitizeFileName("...")).toBe("upload");
    expect(sanitizeFileName("")).toBe("upload");
    expect(sanitizeFileName(`${"x".repeat(300)}.mp3`)).toHaveLength(100);
    expect(sanitizeFileName("東京.mp3")).toBe("mp3");
  });

  it("has the spec's attempts, backoff and retention", () => {
    expect(AUDIO_PROCESSING_JOB_OPTIONS).toEqual({
      attempts: 5,
      backoff: { type: "exponential", delay: 5000 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 604800, count: 5000 },
    });
  });

  it("parses payloads strictly", () => {
    const ok = {
      trackId: crypto.randomUUID(),
      artistId: crypto.randomUUID(),
      sourceKey: "tracks/x/source/a.mp3",
      sourceFileName: "a.mp3",
    };
    expect(AudioJobPayload.parse(ok)).toEqual(ok);
    expect(() => AudioJobPayload.parse({ ...ok, trackId: "nope" })).toThrow();
  });

  it("lays out a track's objects as the spec says", () => {
    const keys = trackKeys("t");
    expect(keys.opus(192)).toBe("tracks/t/audio/192k.opus");
    expect(keys.master).toBe("tracks/t/hls/master.m3u8");
    expect(keys.playlist(128)).toBe("tracks/t/hls/128/index.m3u8");
    expect(keys.init(320)).toBe("tracks/t/hls/320/init_0.mp4");
    expect(keys.segment(128, 7)).toBe("tracks/t/hls/128/segment_00007.m4s");
  });

  it("names variants by the spec's ladder, or one standard rate below it", () => {
    expect(BITRATES).toEqual([128, 192, 320]);
    expect(LOW_BITRATES).toEqual([32, 48, 64, 96]);
    expect(VARIANT_BITRATES).toEqual([32, 48, 64, 96, 128, 192, 320]);
    expect(trackKeys("t").opus(96)).toBe("tracks/t/audio/96k.opus");
    expect(trackKeys("t").playlist(32)).toBe("tracks/t/hls/32/index.m3u8");
  });
});
