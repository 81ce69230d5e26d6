import { describe, expect, it } from "vitest";
import { checkOutputs, OutputUnreadableError } from "../src/checks.ts";
import { classifyFailure } from "../src/failure.ts";
import { parseMediaPlaylist } from "../src/hls/media.ts";

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
