/**
 * What an upload is, decided by its first bytes, in ONE place: the Worker refuses anything else at
 * upload, and the transcoder opens the downloaded source with the demuxer of the format sniffed
 * here, never by its name or by ffmpeg's own guess. Runs in Workers and Node (no imports).
 */

/** The upload formats the converter takes, recognised by their first bytes. */
export type AudioFormat = "mp3" | "wav" | "flac" | "m4a" | "ogg" | "opus";

/** How many leading bytes `sniffAudio` needs to decide. */
export const AUDIO_SNIFF_BYTES = 64;

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/**
 * MP3 (an ID3v2 tag, or an MPEG audio frame sync), WAV (RIFF/WAVE), FLAC (fLaC), M4A (an ISO
 * media file: ftyp box), OGG (OggS; Opus when the first packet is OpusHead). Names and declared
 * types are ignored. Whether the content really decodes is the converter's job.
 */
export function sniffAudio(bytes: Uint8Array): AudioFormat | null {
  if (ascii(bytes, 0, "ID3")) return "mp3";
  // MPEG-1/2/2.5 layer III frame header: 11 sync bits, a valid version and layer III.
  const b1 = bytes[1] ?? 0;
  if (bytes[0] === 0xff && (b1 & 0xe0) === 0xe0 && (b1 & 0x18) !== 0x08 && (b1 & 0x06) === 0x02) {
    return "mp3";
  }
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WAVE")) return "wav";
  if (ascii(bytes, 0, "fLaC")) return "flac";
  if (ascii(bytes, 4, "ftyp")) return "m4a";
  if (ascii(bytes, 0, "OggS")) return ascii(bytes, 28, "OpusHead") ? "opus" : "ogg";
  return null;
}

export const AUDIO_CONTENT_TYPES: Record<AudioFormat, string> = {
  mp3: "audio/mpeg",
  wav: "audio/wav",
  flac: "audio/flac",
  m4a: "audio/mp4",
  ogg: "audio/ogg",
  opus: "audio/ogg; codecs=opus",
};
