import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { trackKeys } from "@edge-music/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness } from "../support/harness.ts";
import { makeAudio, tempDir } from "../support/sources.ts";

// A source is opened as what its first bytes say it is, never as its name or ffmpeg's guess says:
// ffmpeg's probe skips an ID3 tag and would take what follows for an HLS playlist, whose HLS
// demuxer then opens the segment URLs it lists (any local file with a media extension).

const h = createHarness();
let dir: Awaited<ReturnType<typeof tempDir>>;
const at = (name: string) => join(dir.path, name);

/** Another file on the transcoder's disk (another job's source, say): 7 s, unlike the others. */
const SECRET_SECONDS = 7;
const SECONDS = 3;

/** An ID3v2.4 tag holding only padding: what the Worker's sniffing takes for an MP3. */
function id3Tag(padding: number): Buffer {
  const size = [21, 14, 7, 0].map((shift) => (padding >> shift) & 0x7f);
  const header = Buffer.from("ID3\x04\x00\x00", "latin1");
  return Buffer.concat([header, Buffer.from(size), Buffer.alloc(padding)]);
}

/** An HLS playlist behind an ID3 tag, whose one segment is the secret file. */
function playlistBehindTag(segment: string): Buffer {
  const playlist = [
    "#EXTM3U",
    "#EXT-X-VERSION:3",
    `#EXT-X-TARGETDURATION:${SECRET_SECONDS}`,
    "#EXT-X-MEDIA-SEQUENCE:0",
    `#EXTINF:${SECRET_SECONDS}.0,`,
    `file:${segment}`,
    "#EXT-X-ENDLIST",
    "",
  ].join("\n");
  return Buffer.concat([id3Tag(16), Buffer.from(playlist)]);
}

beforeAll(async () => {
  dir = await tempDir();
  await Promise.all([
    makeAudio(at("secret.mp3"), SECRET_SECONDS, ["-c:a", "libmp3lame", "-b:a", "128k"]),
    makeAudio(at("tagged.mp3"), SECONDS, ["-c:a", "libmp3lame", "-b:a", "128k"]),
    makeAudio(at("plain.flac"), SECONDS, ["-c:a", "flac"]),
    makeAudio(at("plain.m4a"), SECONDS, ["-c:a", "aac", "-b:a", "128k"]),
  ]);
  const playlist = playlistBehindTag(at("secret.mp3"));
  await Promise.all([
    writeFile(at("playlist.m3u8"), playlist),
    writeFile(at("playlist.mp3"), playlist),
    // ffmpeg's MP3 muxer writes an ID3v2 tag first: a real MP3, whatever its name.
    readFile(at("tagged.mp3")).then((bytes) => writeFile(at("tagged-mp3.m3u8"), bytes)),
    // Some taggers put an ID3 tag before a FLAC's own header.
    readFile(at("plain.flac")).then((bytes) =>
      writeFile(at("id3-tagged.flac"), Buffer.concat([id3Tag(64), bytes])),
    ),
    readFile(at("plain.m4a")).then((bytes) => writeFile(at("m4a-named.mp3"), bytes)),
  ]);
}, 60_000);
afterAll(async () => {
  await h.close();
  await dir.remove();
});

describe.concurrent("an HLS playlist behind an ID3 tag", () => {
  it.for(["playlist.m3u8", "playlist.mp3"])(
    "named %s → FAILED as bad input; the segment it lists is never read",
    { timeout: 90_000 },
    async (file, context) => {
      const { enqueue, settle } = await h.startQueue(context);
      const track = await h.makeTrack(at(file));
      await enqueue(track);
      const row = await settle(track);

      // Had ffmpeg opened the playlist, the track would be READY with the secret's 7 s of audio.
      expect({ status: row.processingStatus, duration: row.duration }).toEqual({
        status: "FAILED",
        duration: null,
      });
      expect(row.processingError).toMatch(/^Not a readable audio file/);
      expect(row.processingAttempts).toBe(1);
      const objects = await h.listObjects(trackKeys(track.trackId).prefix);
      expect(objects.map((o) => o.key)).toEqual([track.sourceKey]);
      expect(await h.fileRows(track.trackId)).toEqual([]);
    },
  );
});

describe.concurrent("a source is converted as what its bytes are, whatever its name", () => {
  it.for([
    { name: "an MP3 (ID3 tag first) named .m3u8", file: "tagged-mp3.m3u8" },
    { name: "a FLAC behind an ID3 tag", file: "id3-tagged.flac" },
    { name: "an M4A named .mp3", file: "m4a-named.mp3" },
  ])("$name → READY", { timeout: 90_000 }, async ({ file }, context) => {
    const { enqueue, settle } = await h.startQueue(context);
    const track = await h.makeTrack(at(file));
    await enqueue(track);
    const row = await settle(track);

    expect(row.processingError).toBeNull();
    expect(row.processingStatus).toBe("READY");
    expect(Math.abs((row.duration ?? 0) - SECONDS)).toBeLessThan(0.1);
  });
});
