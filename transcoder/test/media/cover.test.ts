import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AudioFormat } from "@edge-music/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractCover, refusePicture } from "../../src/media/cover.ts";
import type { SourceFile } from "../../src/media/ffmpeg/args.ts";
import { probeSource } from "../../src/media/probe.ts";
import {
  BROKEN_IDAT,
  id3WithPicture,
  imageInfo,
  makeAudioWithPicture,
  makePicture,
  makeVorbisWithPicture,
  pngClaiming,
  SMALL_IDAT,
} from "../support/pictures.ts";
import { makeAudio, tempDir } from "../support/sources.ts";

const run = { timeoutMs: 30_000 };
let dir: Awaited<ReturnType<typeof tempDir>>;
let plainMp3 = "";

beforeAll(async () => {
  dir = await tempDir();
  plainMp3 = join(dir.path, "plain.mp3");
  await Promise.all([
    makePicture(join(dir.path, "wide.png"), 1600, 900),
    makePicture(join(dir.path, "wide.jpg"), 1600, 900),
    makePicture(join(dir.path, "tall.png"), 600, 1500),
    makePicture(join(dir.path, "small.png"), 400, 300),
    makeAudio(plainMp3, 1, ["-c:a", "libmp3lame", "-b:a", "128k"]),
  ]);
}, 60_000);
afterAll(() => dir.remove());

/** Probes `path` as `format` and extracts its picture: the JPEG's size, or why it was skipped. */
async function coverOf(path: string, format: AudioFormat) {
  const source: SourceFile = { path, format };
  const info = await probeSource(source, { ...run, maxDurationSeconds: 60 });
  if (!info.picture) return { picture: undefined };
  const output = `${path}.cover.jpg`;
  const result = await extractCover({ ...run, source, picture: info.picture, output });
  if ("skipped" in result) return { picture: info.picture, skipped: result.skipped };
  expect(result.size).toBe((await stat(output)).size);
  // A JPEG by its bytes, as the Worker's sniffImage recognises one.
  expect([...(await readFile(output)).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  return { picture: info.picture, image: await imageInfo(output), bytes: result.size };
}

/** An MP3 whose ID3 tag holds `image` as its cover, whatever its bytes. */
async function mp3With(name: string, image: Buffer, mime = "image/png") {
  const file = join(dir.path, name);
  await writeFile(file, Buffer.concat([id3WithPicture(image, mime), await readFile(plainMp3)]));
  return file;
}

describe.concurrent("cover art each container carries becomes a JPEG of at most 1200 × 1200", () => {
  it.for([
    ["mp3", "ID3v2.3 APIC"],
    ["flac", "METADATA_BLOCK_PICTURE"],
    ["m4a", "covr"],
  ] as const)("%s (%s)", async ([format], { expect }) => {
    const file = join(dir.path, `art.${format}`);
    await makeAudioWithPicture(file, 1, join(dir.path, "wide.png"));
    const cover = await coverOf(file, format);
    expect(cover.picture).toMatchObject({ stream: 1, width: 1600, height: 900 });
    // 16:9 kept: 1600 × 900 fits as 1200 × 675.
    expect(cover.image).toEqual({ codec: "mjpeg", width: 1200, height: 675 });
    expect(cover.bytes).toBeLessThan(5 * 1024 * 1024);
  });

  it("ogg (Vorbis comment METADATA_BLOCK_PICTURE, a JPEG)", async () => {
    const file = join(dir.path, "art.ogg");
    const picture = {
      path: join(dir.path, "wide.jpg"),
      mime: "image/jpeg",
      width: 1600,
      height: 900,
    };
    await makeVorbisWithPicture(file, 1, picture);
    const cover = await coverOf(file, "ogg");
    expect(cover.image).toEqual({ codec: "mjpeg", width: 1200, height: 675 });
  });

  it("a tall picture fits by its height; a small one is re-encoded at its own size, never enlarged", async () => {
    const tall = join(dir.path, "tall.mp3");
    const small = join(dir.path, "small.mp3");
    await Promise.all([
      makeAudioWithPicture(tall, 1, join(dir.path, "tall.png")),
      makeAudioWithPicture(small, 1, join(dir.path, "small.png")),
    ]);
    const [tallCover, smallCover] = await Promise.all([
      coverOf(tall, "mp3"),
      coverOf(small, "mp3"),
    ]);
    expect(tallCover.image).toEqual({ codec: "mjpeg", width: 480, height: 1200 });
    expect(smallCover.image).toEqual({ codec: "mjpeg", width: 400, height: 300 });
  });

  it("a file without cover art has no picture", async () => {
    expect(await coverOf(plainMp3, "mp3")).toEqual({ picture: undefined });
  });
});

describe.concurrent("a picture that cannot be a cover is skipped with a reason, never thrown", () => {
  it("a PNG whose pixel data is corrupt: ffmpeg's decoding error", async () => {
    const file = await mp3With("broken.mp3", pngClaiming(800, 800, BROKEN_IDAT));
    const cover = await coverOf(file, "mp3");
    expect(cover.picture).toMatchObject({ width: 800, height: 800 });
    // The decoder's own words, not the consequences ffmpeg prints last.
    expect(cover.skipped).toBe("inflate returned error -3");
  });

  it("bytes that are no image at all, declared a JPEG", async () => {
    const file = await mp3With("junk.mp3", Buffer.from("certainly not a JPEG"), "image/jpeg");
    const cover = await coverOf(file, "mp3");
    expect(cover.picture).toBeDefined();
    expect(cover.skipped).toBe("No JPEG data found in image");
  });

  it("a PNG claiming 7000 × 7000 (49 MP): refused before decoding, by its header", async () => {
    const file = await mp3With("huge.mp3", pngClaiming(7000, 7000, SMALL_IDAT));
    const cover = await coverOf(file, "mp3");
    expect(cover.picture).toMatchObject({ width: 7000, height: 7000 });
    expect(cover.skipped).toBe("the picture is 7000×7000, over 36 megapixels");
  });
});

describe("refusePicture", () => {
  it("refuses only a known size over 36 megapixels; an unknown size is left to the decoder's limit", () => {
    const at = (width?: number, height?: number) => refusePicture({ stream: 1, width, height });
    expect(at(6000, 6000)).toBeUndefined();
    expect(at(6000, 6001)).toMatch(/over 36 megapixels/);
    expect(at(100_000, 1)).toBeUndefined();
    expect(at(undefined, undefined)).toBeUndefined();
  });
});
