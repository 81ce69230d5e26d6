import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { AudioFormat } from "@edge-music/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BadInputError } from "../../src/media/bad-input.ts";
import { DEMUXERS } from "../../src/media/ffmpeg/args.ts";
import { id3v2Length, sniffSource } from "../../src/media/source-format.ts";
import { makeAudio, tempDir } from "../support/sources.ts";

let dir: Awaited<ReturnType<typeof tempDir>>;
const at = (name: string) => join(dir.path, name);

/** An ID3v2.4 tag header (or footer: `3DI`) declaring `size` bytes of tag body. */
function id3Header(size: number, footer = false, magic = "ID3"): Buffer {
  const syncsafe = [21, 14, 7, 0].map((shift) => (size >> shift) & 0x7f);
  return Buffer.from([...Buffer.from(magic), 4, 0, footer ? 0x10 : 0, ...syncsafe]);
}

/** An ID3v2.4 tag of `padding` zero bytes; with a footer when `footer`. */
function id3Tag(padding: number, footer = false): Buffer {
  const tail = footer ? id3Header(padding, true, "3DI") : Buffer.alloc(0);
  return Buffer.concat([id3Header(padding, footer), Buffer.alloc(padding), tail]);
}

/** One fixture per format an upload may be, each named as something else. */
const FIXTURES: Array<{ file: string; codec: string[]; format: AudioFormat }> = [
  { file: "mp3.bin", codec: ["-c:a", "libmp3lame", "-f", "mp3"], format: "mp3" },
  // No ID3 tag: the frame sync alone.
  {
    file: "bare-mp3.bin",
    codec: ["-c:a", "libmp3lame", "-id3v2_version", "0", "-f", "mp3"],
    format: "mp3",
  },
  { file: "wav.mp3", codec: ["-c:a", "pcm_s16le", "-f", "wav"], format: "wav" },
  { file: "flac.wav", codec: ["-c:a", "flac", "-f", "flac"], format: "flac" },
  { file: "m4a.flac", codec: ["-c:a", "aac", "-f", "ipod"], format: "m4a" },
  { file: "ogg.m4a", codec: ["-c:a", "libvorbis", "-f", "ogg"], format: "ogg" },
  { file: "opus.ogg", codec: ["-c:a", "libopus", "-f", "ogg"], format: "opus" },
];

beforeAll(async () => {
  dir = await tempDir();
  await Promise.all(FIXTURES.map((f) => makeAudio(at(f.file), 1, f.codec)));
  const flac = await readFile(at("flac.wav"));
  const playlist = Buffer.from("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nfile:/x.mp3\n");
  await Promise.all([
    writeFile(at("empty"), ""),
    writeFile(at("lyrics.mp3"), "These are my lyrics, not audio.\n"),
    writeFile(at("playlist.m3u8"), playlist),
    writeFile(at("tag-then-playlist.m3u8"), Buffer.concat([id3Tag(32), playlist])),
    writeFile(at("tag-then-flac.mp3"), Buffer.concat([id3Tag(100), flac])),
    writeFile(at("two-tags-then-flac"), Buffer.concat([id3Tag(10), id3Tag(20, true), flac])),
  ]);
}, 60_000);
afterAll(() => dir.remove());

describe("sniffSource", () => {
  it.for(FIXTURES)("$file is $format, whatever its name", async ({ file, format }) => {
    expect(await sniffSource(at(file))).toBe(format);
  });

  it("looks past ID3 tags: a FLAC behind one or two is a FLAC", async () => {
    expect(await sniffSource(at("tag-then-flac.mp3"))).toBe("flac");
    expect(await sniffSource(at("two-tags-then-flac"))).toBe("flac");
  });

  it("takes a tag followed by nothing it knows for an MP3 (which a playlist is not)", async () => {
    expect(await sniffSource(at("tag-then-playlist.m3u8"))).toBe("mp3");
  });

  it.each([
    ["an empty file", "empty", /^the uploaded file is empty$/],
    ["text", "lyrics.mp3", /^not a readable audio file \(not MP3, WAV, FLAC, M4A, OGG or Opus\)$/],
    ["a bare playlist", "playlist.m3u8", /^not a readable audio file/],
  ])("refuses %s as bad input, before any ffmpeg run", async (_, file, message) => {
    const sniffing = sniffSource(at(file));
    await expect(sniffing).rejects.toThrow(BadInputError);
    await expect(sniffing).rejects.toThrow(message);
  });
});

describe("id3v2Length", () => {
  it("reads the syncsafe size, with the footer when flagged", () => {
    expect(id3v2Length(id3Tag(0))).toBe(10);
    expect(id3v2Length(id3Tag(300))).toBe(310);
    expect(id3v2Length(id3Tag(300, true))).toBe(320);
    expect(id3v2Length(id3Header(2 ** 28 - 1))).toBe(2 ** 28 - 1 + 10);
  });

  it("is 0 for what is no tag header", () => {
    expect(id3v2Length(Buffer.from("ID3"))).toBe(0);
    expect(id3v2Length(Buffer.from("fLaC\0\0\0\x22\0\0"))).toBe(0);
    // A size byte with its top bit set is not syncsafe.
    expect(id3v2Length(Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0x80, 0]))).toBe(0);
    expect(id3v2Length(Buffer.from([0x49, 0x44, 0x33, 0xff, 0, 0, 0, 0, 0, 0]))).toBe(0);
  });
});

describe("DEMUXERS", () => {
  it("names a demuxer this machine's ffmpeg has, for every format", async () => {
    const { stdout } = await promisify(execFile)("ffmpeg", ["-hide_banner", "-formats"]);
    // ` D  mov,mp4,m4a,3gp,3g2,mj2 QuickTime / MOV`: the flags, then the names.
    const demuxers = new Set(
      [...stdout.matchAll(/^ D.? (\S+) /gm)].flatMap((m) => (m[1] ?? "").split(",")),
    );
    for (const [format, demuxer] of Object.entries(DEMUXERS)) {
      expect(demuxers.has(demuxer), `${format} → ${demuxer}`).toBe(true);
    }
  });
});
