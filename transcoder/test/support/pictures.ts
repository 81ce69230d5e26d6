import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { crc32, deflateSync } from "node:zlib";
import { ffmpeg } from "./sources.ts";

const exec = promisify(execFile);

/** A test-pattern picture of `width`×`height`, encoded as its name says (.png, .jpg). */
export async function makePicture(file: string, width: number, height: number): Promise<void> {
  await ffmpeg(["-f", "lavfi", "-i", `testsrc2=s=${width}x${height}:d=1`, "-frames:v", "1", file]);
}

/** How each container stores cover art, as ffmpeg's muxers write it (Ogg: see vorbisPicture). */
const PICTURE_CODEC: Record<string, string[]> = {
  mp3: ["-c:a", "libmp3lame", "-b:a", "128k", "-c:v", "png", "-id3v2_version", "3"],
  flac: ["-c:a", "flac", "-c:v", "png"],
  m4a: ["-c:a", "aac", "-b:a", "128k", "-c:v", "png"],
};

/**
 * `seconds` of a tone with `picture` (PNG) as its cover art: an ID3v2.3 APIC frame in an MP3,
 * a METADATA_BLOCK_PICTURE in a FLAC, a `covr` atom in an M4A (by the file's extension).
 */
export async function makeAudioWithPicture(file: string, seconds: number, picture: string) {
  const ext = file.split(".").pop() ?? "";
  const codec = PICTURE_CODEC[ext];
  if (!codec) throw new Error(`no cover art recipe for .${ext}`);
  await ffmpeg([
    ...["-f", "lavfi", "-i", `sine=f=440:d=${seconds}`, "-i", picture],
    ...["-map", "0:a", "-map", "1:v", ...codec, "-disposition:v", "attached_pic", file],
  ]);
}

/** The FLAC picture block (front cover) that FLAC files and Vorbis comments carry. */
function pictureBlock(image: Buffer, mime: string, width: number, height: number): Buffer {
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const type = Buffer.from(mime);
  const fields = [u32(3), u32(type.length), type, u32(0), u32(width), u32(height), u32(24), u32(0)];
  return Buffer.concat([...fields, u32(image.length), image]);
}

/**
 * An Ogg Vorbis file whose comments carry `picture` as a base64 METADATA_BLOCK_PICTURE (what
 * taggers write; ffmpeg 5.1's Ogg muxer cannot). Through an ffmetadata file: too long for argv.
 */
export async function makeVorbisWithPicture(
  file: string,
  seconds: number,
  picture: { path: string; mime: string; width: number; height: number },
) {
  const image = await readFile(picture.path);
  const block = pictureBlock(image, picture.mime, picture.width, picture.height);
  const escaped = block.toString("base64").replace(/[=;#\\]/g, "\\$&");
  const meta = `${file}.ffmeta`;
  await writeFile(meta, `;FFMETADATA1\nMETADATA_BLOCK_PICTURE=${escaped}\n`);
  await ffmpeg([
    ...["-f", "lavfi", "-i", `sine=f=440:d=${seconds}`, "-i", meta, "-map_metadata", "1"],
    ...["-c:a", "libvorbis", file],
  ]);
}

/**
 * An ID3v2.3 tag with one APIC frame (front cover) holding `image` as it is, however broken:
 * put before an MP3's frames, what a tagger writes.
 */
export function id3WithPicture(image: Buffer, mime: string): Buffer {
  const body = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(`${mime}\0`),
    Buffer.from([3, 0]),
    image,
  ]);
  const frame = Buffer.alloc(10);
  frame.write("APIC");
  frame.writeUInt32BE(body.length, 4);
  const size = frame.length + body.length;
  // A tag's size is "synchsafe": 7 bits per byte.
  const synchsafe = [21, 14, 7, 0].map((shift) => (size >> shift) & 0x7f);
  return Buffer.concat([Buffer.from("ID3\x03\x00\x00"), Buffer.from(synchsafe), frame, body]);
}

/** A PNG of the claimed size whose pixel data is `idat` (valid or not), CRCs correct. */
export function pngClaiming(width: number, height: number, idat: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([head, Buffer.from(type), data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", idat),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Pixel data that is no zlib stream: the PNG decoder fails on it. */
export const BROKEN_IDAT = Buffer.from("not a zlib stream ".repeat(20));
/** A few valid compressed rows: a PNG claiming a huge size decodes only if it is allowed to. */
export const SMALL_IDAT = deflateSync(Buffer.alloc(1024));

/** Codec, width and height of an image file, as ffprobe reads them. */
export async function imageInfo(
  file: string,
): Promise<{ codec: string; width: number; height: number }> {
  const { stdout } = await exec("ffprobe", [
    ...["-v", "error", "-show_entries", "stream=codec_name,width,height"],
    ...["-print_format", "json", file],
  ]);
  const [stream] = (
    JSON.parse(stdout) as { streams: Array<{ codec_name: string; width: number; height: number }> }
  ).streams;
  if (!stream) throw new Error(`no stream in ${file}`);
  return { codec: stream.codec_name, width: stream.width, height: stream.height };
}
