import { describe, expect, it } from "vitest";
import { AUDIO_CONTENT_TYPES, AUDIO_SNIFF_BYTES, sniffAudio } from "../src/index.ts";

/** `text` (latin1) at `at` in AUDIO_SNIFF_BYTES zero bytes, then `rest` from byte 0. */
function bytes(parts: Array<[number, string | number[]]>): Uint8Array {
  const out = new Uint8Array(AUDIO_SNIFF_BYTES);
  for (const [at, part] of parts) {
    out.set(typeof part === "string" ? [...part].map((c) => c.charCodeAt(0)) : part, at);
  }
  return out;
}

describe("sniffAudio", () => {
  it.each([
    ["an ID3v2 tag", bytes([[0, "ID3\x04\x00"]]), "mp3"],
    ["an MPEG-1 layer III frame", bytes([[0, [0xff, 0xfb, 0x90, 0x64]]]), "mp3"],
    ["an MPEG-2 layer III frame", bytes([[0, [0xff, 0xf3, 0x48, 0xc4]]]), "mp3"],
    ["RIFF/WAVE", bytes([[0, "RIFF\x24\x00\x00\x00WAVEfmt "]]), "wav"],
    ["fLaC", bytes([[0, "fLaC\x00\x00\x00\x22"]]), "flac"],
    ["an ISO media ftyp box", bytes([[0, "\x00\x00\x00\x20ftypM4A "]]), "m4a"],
    [
      "Ogg Vorbis",
      bytes([
        [0, "OggS"],
        [28, "\x01vorbis"],
      ]),
      "ogg",
    ],
    [
      "Ogg Opus",
      bytes([
        [0, "OggS"],
        [28, "OpusHead"],
      ]),
      "opus",
    ],
  ])("%s → %s", (_, head, format) => {
    expect(sniffAudio(head)).toBe(format);
  });

  it.each([
    ["nothing", new Uint8Array()],
    ["an HLS playlist", bytes([[0, "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"]])],
    ["an MPEG layer II frame (MP2)", bytes([[0, [0xff, 0xfd, 0x90, 0x64]]])],
    ["RIFF that is not WAVE (AVI)", bytes([[0, "RIFF\x24\x00\x00\x00AVI LIST"]])],
    ["text", bytes([[0, "These are my lyrics"]])],
  ])("%s → null", (_, head) => {
    expect(sniffAudio(head)).toBeNull();
  });

  it("has a content type for every format it can answer", () => {
    expect(Object.keys(AUDIO_CONTENT_TYPES).sort()).toEqual([
      "flac",
      "m4a",
      "mp3",
      "ogg",
      "opus",
      "wav",
    ]);
  });
});
