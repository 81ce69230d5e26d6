/**
 * What people are told about the accepted audio, in one place: the upload page's hint and file
 * filter (the web player imports this module alone, `@edge-music/contracts/audio-names`: no
 * code imports, so no zod in its bundle) and the Worker's 415 answers. The formats are
 * `sniffAudio`'s: each one has a name here, or this does not compile.
 */
import type { AudioFormat } from "./audio-format.ts";

/** Each accepted format's name and usual extension, in the order people are told them. */
const FORMATS: Record<AudioFormat, { name: string; extension: string }> = {
  mp3: { name: "MP3", extension: ".mp3" },
  wav: { name: "WAV", extension: ".wav" },
  flac: { name: "FLAC", extension: ".flac" },
  m4a: { name: "M4A", extension: ".m4a" },
  ogg: { name: "OGG", extension: ".ogg" },
  opus: { name: "Opus", extension: ".opus" },
};

const names = Object.values(FORMATS).map((format) => format.name);

/** "MP3, WAV, FLAC, M4A, OGG or Opus": for sentences. */
export const ACCEPTED_AUDIO_LIST = `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;

/** The file picker's filter: the formats' usual extensions (the bytes decide, not the name). */
export const ACCEPTED_AUDIO_EXTENSIONS = Object.values(FORMATS).map((format) => format.extension);

/** The start of every refusal of a file that is not accepted audio. */
export const NOT_AUDIO = "This file is not audio we can read";

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** Known first bytes of files people upload by mistake, and what to call them. */
const KNOWN: Array<[(bytes: Uint8Array) => boolean, string]> = [
  [(b) => ascii(b, 0, "\x89PNG"), "it looks like a PNG image"],
  [(b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff, "it looks like a JPEG image"],
  [(b) => ascii(b, 0, "GIF8"), "it looks like a GIF image"],
  [(b) => ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP"), "it looks like a WebP image"],
  [(b) => ascii(b, 0, "RIFF") && ascii(b, 8, "AVI "), "it looks like an AVI video"],
  [(b) => ascii(b, 0, "%PDF"), "it looks like a PDF document"],
  [(b) => ascii(b, 0, "PK\x03\x04"), "it looks like a ZIP archive (or an office document)"],
  [(b) => ascii(b, 0, "\x1aE\xdf\xa3"), "it looks like a WebM or Matroska file"],
  [
    (b) => ascii(b, 0, "FORM") && ascii(b, 8, "AIF"),
    "it looks like AIFF audio, which is not accepted",
  ],
  [(b) => ascii(b, 0, "MThd"), "it looks like a MIDI file (notes, not recorded sound)"],
  [(b) => ascii(b, 0, "#EXTM3U"), "it looks like a playlist, not the audio itself"],
  [
    // ADTS: 12 sync bits, layer 00 (an MPEG audio frame has a non-zero layer).
    (b) => b[0] === 0xff && ((b[1] ?? 0) & 0xf6) === 0xf0,
    "it looks like raw AAC audio, which is read only inside an M4A file",
  ],
  [
    (b) => b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0,
    "it looks like MPEG audio other than MP3",
  ],
];

/**
 * What a file that is not accepted audio seems to be, from its first bytes, for the person who
 * sent it: "it is empty", "it looks like a PNG image", "it looks like text", or "its content is
 * of no kind we know".
 */
export function describeContent(bytes: Uint8Array): string {
  if (bytes.length === 0) return "it is empty";
  for (const [matches, found] of KNOWN) if (matches(bytes)) return found;
  if (looksLikeText(bytes)) {
    return ascii(bytes, 0, "<") ? "it looks like a web page or other markup" : "it looks like text";
  }
  return "its content is of no kind we know";
}

/** Valid UTF-8 (a multi-byte character cut at the sample's end allowed) without control bytes. */
function looksLikeText(bytes: Uint8Array): boolean {
  const control = (byte: number) => byte < 0x09 || (byte > 0x0d && byte < 0x20) || byte === 0x7f;
  if (bytes.some(control)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The sentence of a refused file: what was found, then what is accepted. */
export const notAudioMessage = (bytes: Uint8Array) =>
  `${NOT_AUDIO}: ${describeContent(bytes)}. Upload ${ACCEPTED_AUDIO_LIST} audio.`;
