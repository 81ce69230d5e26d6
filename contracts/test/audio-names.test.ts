import { describe, expect, it } from "vitest";
import {
  ACCEPTED_AUDIO_EXTENSIONS,
  ACCEPTED_AUDIO_LIST,
  describeContent,
  notAudioMessage,
  sniffAudio,
} from "../src/index.ts";

const latin1 = (text: string) => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));

describe("the accepted audio, as people are told it", () => {
  it("names every format sniffAudio takes, and nothing else (no AAC outside M4A)", () => {
    expect(ACCEPTED_AUDIO_LIST).toBe("MP3, WAV, FLAC, M4A, OGG or Opus");
    expect(ACCEPTED_AUDIO_EXTENSIONS).toEqual([".mp3", ".wav", ".flac", ".m4a", ".ogg", ".opus"]);
  });

  it.each([
    ["nothing", new Uint8Array(), "it is empty"],
    ["a PNG", latin1("\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), "it looks like a PNG image"],
    ["a JPEG", latin1("\xff\xd8\xff\xe0\0\x10JFIF"), "it looks like a JPEG image"],
    ["a WebP", latin1("RIFF\x24\0\0\0WEBPVP8 "), "it looks like a WebP image"],
    ["a PDF", latin1("%PDF-1.7\n"), "it looks like a PDF document"],
    [
      "an AIFF",
      latin1("FORM\0\0\0\x24AIFFCOMM"),
      "it looks like AIFF audio, which is not accepted",
    ],
    [
      "raw AAC (ADTS)",
      latin1("\xff\xf1\x50\x80\x02\x1f\xfc"),
      "it looks like raw AAC audio, which is read only inside an M4A file",
    ],
    ["lyrics", new TextEncoder().encode("Sunrise over the harbour, é"), "it looks like text"],
    ["a web page", latin1("<!doctype html><html>"), "it looks like a web page or other markup"],
    ["random bytes", latin1("\x00\x13\x37\xfe\x01\x02\x03"), "its content is of no kind we know"],
  ])("%s: %s", (_name, bytes, found) => {
    expect(sniffAudio(bytes)).toBeNull();
    expect(describeContent(bytes)).toBe(found);
  });

  it("says a UTF-8 character cut at the sample's end is still text", () => {
    const cut = new TextEncoder().encode("Café").subarray(0, 4);
    expect(describeContent(cut)).toBe("it looks like text");
  });

  it("makes one sentence: what was found, then the accepted list", () => {
    expect(notAudioMessage(latin1("\x89PNG\r\n"))).toBe(
      "This file is not audio we can read: it looks like a PNG image. Upload MP3, WAV, FLAC, M4A, OGG or Opus audio.",
    );
  });
});
