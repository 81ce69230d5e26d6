import { describe, expect, it } from "vitest";
import {
  parseMediaPlaylist,
  raiseTargetDuration,
  rewriteInitUri,
} from "../../../src/media/hls/media-playlist.ts";
import { FFMPEG_PLAYLIST } from "../../support/playlists.ts";

describe("media playlists", () => {
  it("reads target duration, init URI, segments and the end marker", () => {
    const playlist = parseMediaPlaylist(FFMPEG_PLAYLIST);
    expect(playlist.targetDuration).toBe(4);
    expect(playlist.mapUri).toBe("../192/init_0.mp4");
    expect(playlist.ended).toBe(true);
    expect(playlist.segments.map((s) => [s.uri, s.extinf])).toEqual([
      ["segment_00000.m4s", "4.017052"],
      ["segment_00001.m4s", "3.993832"],
      ["segment_00002.m4s", "0.037007"],
    ]);
  });

  it("points every rendition at the init segment beside it", () => {
    const text = rewriteInitUri(FFMPEG_PLAYLIST);
    expect(text).toContain('#EXT-X-MAP:URI="init_0.mp4"\n');
    expect(text.replace('"init_0.mp4"', '"../192/init_0.mp4"')).toBe(FFMPEG_PLAYLIST);
  });

  it("gives a sub-second track a target duration of 1 (ffmpeg writes 0, players refuse it)", () => {
    const tiny = FFMPEG_PLAYLIST.replace("TARGETDURATION:4", "TARGETDURATION:0")
      .replace(/#EXTINF:[\s\S]*segment_00000\.m4s\n/, "#EXTINF:0.323220,\nsegment_00000.m4s\n")
      .replace(/#EXTINF:3[\s\S]*segment_00002\.m4s\n/, "");
    const raised = raiseTargetDuration(tiny);
    expect(raised).toBe(tiny.replace("TARGETDURATION:0", "TARGETDURATION:1"));
    expect(parseMediaPlaylist(raised).targetDuration).toBe(1);
    expect(raiseTargetDuration(FFMPEG_PLAYLIST)).toBe(FFMPEG_PLAYLIST);
    const ten = FFMPEG_PLAYLIST.replace("TARGETDURATION:4", "TARGETDURATION:10");
    expect(raiseTargetDuration(ten)).toBe(ten);
  });
});
