import { describe, expect, it } from "vitest";
import { classifyFailure } from "../../src/job/failure.ts";
import { checkOutputs, OutputUnreadableError } from "../../src/media/checks.ts";
import {
  type MediaPlaylist,
  parseMediaPlaylist,
  rewriteInitUri,
} from "../../src/media/hls/media-playlist.ts";
import { FFMPEG_PLAYLIST } from "../support/playlists.ts";

const WHOLE = parseMediaPlaylist(`#EXTM3U
#EXT-X-VERSION:7
#EXT-X-TARGETDURATION:4
#EXT-X-PLAYLIST-TYPE:VOD
#EXT-X-MAP:URI="init_0.mp4"
#EXTINF:4.000000,
segment_00000.m4s
#EXTINF:2.000000,
segment_00001.m4s
#EXT-X-ENDLIST
`);
const renditions = [{ rung: 128, playlist: WHOLE }];

describe("checkOutputs", () => {
  const good = parseMediaPlaylist(rewriteInitUri(FFMPEG_PLAYLIST));
  const total = 4.017052 + 3.993832 + 0.037007;
  const renditions = (...lists: MediaPlaylist[]) =>
    lists.map((playlist, i) => ({ rung: [128, 192, 320][i] ?? 0, playlist }));
  const opus = [{ rung: 128, duration: total }];

  it("accepts aligned renditions and outputs as long as the source", () => {
    expect(checkOutputs({ duration: total, renditions: renditions(good, good), opus })).toBeNull();
  });

  it("calls a short output a damaged source (ffmpeg exits 0 on truncated input)", () => {
    expect(checkOutputs({ duration: 16, renditions: renditions(good), opus })).toMatch(
      /damaged or truncated: only 8\.0 s of 16\.0 s/,
    );
    const shortOpus = [{ rung: 128, duration: 3 }];
    expect(
      checkOutputs({ duration: total, renditions: renditions(good), opus: shortOpus }),
    ).toMatch(/only 3\.0 s .*Opus 128k/);
  });

  it("refuses renditions that are not aligned, over-long segments and odd names", () => {
    const shifted = parseMediaPlaylist(
      rewriteInitUri(FFMPEG_PLAYLIST)
        .replace("3.993832", "3.970612")
        .replace("0.037007", "0.060227"),
    );
    expect(checkOutputs({ duration: total, renditions: renditions(good, shifted), opus })).toMatch(
      /rendition 192 is not aligned/,
    );
    const long = parseMediaPlaylist(rewriteInitUri(FFMPEG_PLAYLIST).replace("4.017052", "4.6"));
    expect(checkOutputs({ duration: total, renditions: renditions(long), opus })).toMatch(
      /4\.6 s segment/,
    );
    const renamed = parseMediaPlaylist(FFMPEG_PLAYLIST.replace("segment_00001", "segment_00007"));
    expect(checkOutputs({ duration: total, renditions: renditions(renamed), opus })).toMatch(
      /unexpected segment name at position 1/,
    );
    const open = parseMediaPlaylist(FFMPEG_PLAYLIST.replace("#EXT-X-ENDLIST\n", ""));
    expect(checkOutputs({ duration: total, renditions: renditions(open), opus })).toMatch(
      /incomplete/,
    );
  });
});

describe("checkOutputs: whose fault a shortfall is", () => {
  it("an Opus file read back as empty beside whole HLS renditions: a fault of ours, retried", () => {
    const check = () =>
      checkOutputs({ duration: 6, renditions, opus: [{ rung: 128, duration: 0 }] });
    expect(check).toThrow(OutputUnreadableError);
    const thrown = (() => {
      try {
        check();
      } catch (error) {
        return error;
      }
    })();
    expect(classifyFailure(thrown)).toEqual({
      permanent: false,
      reason: "The converted Opus 128k file could not be read back (a temporary fault).",
    });
  });

  it("short HLS renditions still name a damaged source, whatever the Opus files say", () => {
    expect(checkOutputs({ duration: 12, renditions, opus: [{ rung: 128, duration: 0 }] })).toMatch(
      /damaged or truncated: only 6\.0 s of 12\.0 s could be decoded \(HLS rendition 128\)/,
    );
  });
});
