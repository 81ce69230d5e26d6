import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { trackKeys } from "@edge-music/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness } from "../support/harness.ts";
import { ffmpeg, makeAudio, tempDir } from "../support/sources.ts";

const h = createHarness();
let dir: Awaited<ReturnType<typeof tempDir>>;
const at = (name: string) => join(dir.path, name);

async function halve(from: string, to: string) {
  const bytes = await readFile(at(from));
  await writeFile(at(to), bytes.subarray(0, Math.floor(bytes.length / 2)));
}

/** The same "random" bytes on every run (xorshift32), so the case cannot flake. */
function pseudoRandomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = 0x9e3779b9;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

/** A WAV whose format tag (0x3412) names no codec: ffprobe reads it, no decoder exists. */
async function unknownCodec(from: string, to: string) {
  const bytes = await readFile(at(from));
  const fmt = bytes.indexOf("fmt ");
  bytes.writeUInt16LE(0x3412, fmt + 8);
  await writeFile(at(to), bytes);
}

/** Every 97th byte after the header flipped: the stream info holds, nearly no frame decodes. */
async function damageFrames(from: string, to: string) {
  const bytes = await readFile(at(from));
  for (let i = 8192; i < bytes.length; i += 97) bytes.writeUInt8((bytes[i] ?? 0) ^ 0x5a, i);
  await writeFile(at(to), bytes);
}

beforeAll(async () => {
  dir = await tempDir();
  await Promise.all([
    writeFile(at("empty.mp3"), ""),
    writeFile(at("notes.mp3"), "These are my lyrics, not audio.\n".repeat(200)),
    writeFile(at("noise.bin.mp3"), pseudoRandomBytes(256 * 1024)),
    makeAudio(at("whole.mp3"), 12, ["-c:a", "libmp3lame", "-b:a", "192k"]),
    makeAudio(at("whole.flac"), 12, ["-c:a", "flac"]),
    makeAudio(at("whole.m4a"), 12, ["-c:a", "aac", "-b:a", "192k", "-movflags", "+faststart"]),
    ffmpeg(["-f", "lavfi", "-i", "testsrc=d=5:s=160x120", "-an", at("video-only.mp4")]),
    makeAudio(at("twelve-seconds.mp3"), 12, ["-c:a", "libmp3lame", "-b:a", "128k"]),
    makeAudio(at("short.wav"), 4, ["-c:a", "pcm_s16le"]),
    makeAudio(at("short.flac"), 4, ["-c:a", "flac"]),
  ]);
  await unknownCodec("short.wav", "unknown-codec.wav");
  await damageFrames("short.flac", "damaged.flac");
  await halve("whole.mp3", "truncated.mp3");
  await halve("whole.flac", "truncated.flac");
  await halve("whole.m4a", "truncated.m4a");
}, 120_000);
afterAll(async () => {
  await h.close();
  await dir.remove();
});

interface BadInput {
  name: string;
  file: string;
  reason: RegExp;
  config?: Record<string, string>;
}

const CASES: BadInput[] = [
  { name: "an empty file", file: "empty.mp3", reason: /^The uploaded file is empty\.$/ },
  // Refused by its first bytes, before any ffmpeg run (sniffSource).
  {
    name: "text named .mp3",
    file: "notes.mp3",
    reason: /^Not a readable audio file \(not MP3, WAV, FLAC, M4A, OGG or Opus\)\.$/,
  },
  { name: "random bytes", file: "noise.bin.mp3", reason: /^Not a readable audio file/ },
  {
    name: "a video without sound",
    file: "video-only.mp4",
    reason: /^The file has no audio stream\.$/,
  },
  {
    name: "an MP3 cut in half",
    file: "truncated.mp3",
    reason: /damaged or truncated: only 6\.\d s of 12\.0 s/,
  },
  {
    name: "a FLAC cut in half",
    file: "truncated.flac",
    reason: /damaged or truncated: only 6\.\d s of 12\.0 s/,
  },
  {
    name: "an M4A cut in half",
    file: "truncated.m4a",
    reason: /damaged or truncated: only [5-7]\.\d s of 12\.0 s/,
  },
  {
    name: "a WAV in a format no decoder knows",
    file: "unknown-codec.wav",
    reason: /^The file could not be decoded as audio: its audio format is not supported\.$/,
  },
  {
    name: "a FLAC whose frames are nearly all damaged",
    file: "damaged.flac",
    reason: /^The file could not be decoded as audio: most of its audio frames are damaged\.$/,
  },
  {
    name: "a source over the length limit",
    file: "twelve-seconds.mp3",
    reason: /^The audio lasts 0:12; the limit is 0:05\.$/,
    config: { MAX_DURATION_SECONDS: "5" },
  },
];

describe.concurrent("a source that can never convert", () => {
  it.for(CASES)(
    "$name → FAILED after one attempt, with a reason the artist can read",
    { timeout: 90_000 },
    async ({ file, reason, config }, context) => {
      const { enqueue, settle, queue } = await h.startQueue(context, { config });
      const track = await h.makeTrack(at(file));
      const job = await enqueue(track);
      const row = await settle(track);

      expect(row.processingStatus).toBe("FAILED");
      // The file is at fault: the Worker refuses to convert it again.
      expect(row.sourceUnreadable).toBe(true);
      expect(row.processingError).toMatch(reason);
      expect(row.processingError).not.toMatch(/\n|\/tmp|at .*\.ts/);
      // One sentence the artist can read.
      expect(row.processingError).toMatch(/^[A-Z][^\n]*\.$/);
      expect(row.processingAttempts).toBe(1);
      expect(row.processingFinishedAt).toBeInstanceOf(Date);
      expect((await queue.getJob(job.id ?? ""))?.attemptsMade).toBe(1);
      // Nothing was published; the source stays for diagnosis.
      const objects = await h.listObjects(trackKeys(track.trackId).prefix);
      expect(objects.map((o) => o.key)).toEqual([track.sourceKey]);
      expect(await h.fileRows(track.trackId)).toEqual([]);
    },
  );
});
