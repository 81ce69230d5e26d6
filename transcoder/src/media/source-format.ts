import { type FileHandle, open } from "node:fs/promises";
import {
  ACCEPTED_AUDIO_LIST,
  AUDIO_SNIFF_BYTES,
  type AudioFormat,
  sniffAudio,
} from "@edge-music/contracts";
import { BadInputError } from "./bad-input.ts";

/** ID3v2's header (and footer) size. */
const ID3_HEADER = 10;
/** Tags one after another that are looked past; ffmpeg skips any number, files carry one or two. */
const MAX_TAGS = 4;

/**
 * The length of the ID3v2 tag that `bytes` start with (header, body, footer), 0 when none. The
 * test ffmpeg applies before skipping one: "ID3", a version not 0xff, a syncsafe size.
 */
export function id3v2Length(bytes: Uint8Array): number {
  if (bytes.length < ID3_HEADER || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) {
    return 0;
  }
  const size = bytes.subarray(6, ID3_HEADER);
  if (bytes[3] === 0xff || bytes[4] === 0xff || size.some((b) => b & 0x80)) return 0;
  const body = size.reduce((total, b) => (total << 7) | b, 0);
  const footer = (bytes[5] ?? 0) & 0x10 ? ID3_HEADER : 0;
  return ID3_HEADER + body + footer;
}

async function readAt(handle: FileHandle, position: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(AUDIO_SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, AUDIO_SNIFF_BYTES, position);
  return buffer.subarray(0, bytesRead);
}

/**
 * What the downloaded source is, by its first bytes: the Worker's verdict at upload, made again
 * (the transcoder trusts neither the upload's name nor that check having run). Every ffmpeg run
 * opens the source with this format's demuxer (see DEMUXERS).
 *
 * An ID3 tag says MP3, but taggers put one before a FLAC too, and ffmpeg skips leading tags for
 * any demuxer: what follows the tags decides, MP3 when it is nothing else recognised (a playlist
 * behind a tag then fails as MP3). Throws BadInputError, before any ffmpeg run, for an empty
 * file and for one that is no format an upload may be.
 */
export async function sniffSource(file: string): Promise<AudioFormat> {
  const handle = await open(file, "r");
  try {
    let bytes = await readAt(handle, 0);
    if (bytes.length === 0) throw new BadInputError("the uploaded file is empty");
    const format = sniffAudio(bytes);
    if (format === null) {
      throw new BadInputError(`not a readable audio file (not ${ACCEPTED_AUDIO_LIST})`);
    }
    let position = 0;
    for (let tags = 0; tags < MAX_TAGS; tags++) {
      const length = id3v2Length(bytes);
      if (length === 0) break;
      position += length;
      bytes = await readAt(handle, position);
    }
    return position === 0 ? format : (sniffAudio(bytes) ?? "mp3");
  } finally {
    await handle.close();
  }
}
