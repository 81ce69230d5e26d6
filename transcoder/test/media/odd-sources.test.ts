import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import { playbackGainDb, trackKeys } from "@edge-music/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness } from "../support/harness.ts";
import { expectOutputs, getText, playFromStorage } from "../support/outputs.ts";
import { channelPeaks, makeAudio, makeFromFilter, tempDir } from "../support/sources.ts";

interface OddSource {
  file: string;
  seconds: number;
  make: (path: string) => Promise<void>;
  rungs: number[];
}

const SECONDS = 1;
const music = (codec: string[]) => (path: string) => makeAudio(path, SECONDS, codec);
/** One aevalsrc expression per channel, in the layout's order. */
const channels = (layout: string, exprs: string[]) =>
  `aevalsrc=exprs=${exprs.join("|")}:c=${layout}:s=48000:d=${SECONDS}`;
const tone = (hz: number, level: number) => `${level}*sin(2*PI*${hz}*t)`;

/**
 * 5.1 with a tone in the centre only and a loud LFE: a proper downmix puts the centre in both
 * sides at −3 dB, scaled by 1/(1 + 2 × 0.707) so that nothing clips, and drops the LFE.
 */
const CENTRE_ONLY_5_1 = channels("5.1", ["0", "0", tone(440, 0.5), tone(60, 0.9), "0", "0"]);
const CENTRE_PEAK_DB = 20 * Math.log10((0.5 * Math.SQRT1_2) / (1 + Math.SQRT2));

/** Formats a musician's export can come in, beyond the usual ones, each with its ladder. */
const SOURCES: OddSource[] = [
  // 0.3 s: ffmpeg's own playlist would say #EXT-X-TARGETDURATION:0.
  {
    file: "sub-second.mp3",
    seconds: 0.3,
    make: (path) => makeAudio(path, 0.3, ["-c:a", "libmp3lame", "-b:a", "128k"]),
    rungs: [128],
  },
  // 8000 × 16 × 1 = 128 kbps: the ladder's first rung only, though PCM.
  {
    file: "mono-8k-16bit.wav",
    seconds: SECONDS,
    make: music(["-ac", "1", "-ar", "8000", "-c:a", "pcm_s16le"]),
    rungs: [128],
  },
  {
    file: "hires-192k-24bit.wav",
    seconds: SECONDS,
    make: music(["-ar", "192000", "-c:a", "pcm_s24le"]),
    rungs: [128, 192, 320],
  },
  {
    file: "surround-5.1-float.wav",
    seconds: SECONDS,
    make: (path) => makeFromFilter(path, CENTRE_ONLY_5_1, ["-c:a", "pcm_f32le"]),
    rungs: [128, 192, 320],
  },
  {
    file: "surround-7.1-24bit.flac",
    seconds: SECONDS,
    make: (path) =>
      makeFromFilter(
        path,
        channels(
          "7.1",
          [110, 220, 330, 55, 440, 550, 660, 770].map((hz) => tone(hz, 0.1)),
        ),
        ["-c:a", "flac", "-sample_fmt", "s32"],
      ),
    rungs: [128, 192, 320],
  },
  // The example: a 64 kbps MP3 used to get a 128 rung.
  {
    file: "mp3-64k.mp3",
    seconds: SECONDS,
    make: music(["-ac", "1", "-ar", "22050", "-c:a", "libmp3lame", "-b:a", "64k"]),
    rungs: [64],
  },
  // Below the lowest standard rate: still one 32 variant (a track that plays is not refused).
  {
    file: "speech-16k.opus",
    seconds: SECONDS,
    make: music(["-ac", "1", "-c:a", "libopus", "-b:a", "16k"]),
    rungs: [32],
  },
];

const h = createHarness();
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir();
  await Promise.all(SOURCES.map((s) => s.make(join(dir.path, s.file))));
}, 60_000);
afterAll(async () => {
  await h.close();
  await dir.remove();
});

async function download(key: string, path: string) {
  const object = await h.storage.client.send(new GetObjectCommand({ Bucket: h.bucket, Key: key }));
  await writeFile(path, (await object.Body?.transformToByteArray()) ?? new Uint8Array());
}

describe.concurrent("odd sources", () => {
  it.for(SOURCES)(
    "$file → READY with $rungs",
    { timeout: 120_000 },
    async ({ file, seconds, rungs }, context) => {
      const { enqueue, settle } = await h.startQueue(context);
      const track = await h.makeTrack(join(dir.path, file));
      await enqueue(track);
      const row = await settle(track);

      expect(row.processingError).toBeNull();
      expect(row.processingStatus).toBe("READY");
      expect(Math.abs((row.duration ?? 0) - seconds)).toBeLessThan(0.1);
      await expectOutputs(h, track.trackId, rungs);

      const keys = trackKeys(track.trackId);
      const master = await getText(h, keys.master);
      expect(master.match(/^\d+\/index\.m3u8$/gm)?.sort()).toEqual(
        rungs.map((r) => `${r}/index.m3u8`).sort(),
      );
      const gain = playbackGainDb({
        integratedLufs: row.loudnessLufs,
        truePeakDbtp: row.truePeakDbtp,
      });
      const session = master.match(/^#EXT-X-SESSION-DATA:.*$/gm) ?? [];
      expect(session).toEqual(
        gain === null
          ? []
          : [`#EXT-X-SESSION-DATA:DATA-ID="com.edge-music.gain",VALUE="${gain.toFixed(1)}"`],
      );
      for (const rung of rungs) {
        const target = /#EXT-X-TARGETDURATION:(\d+)/.exec(await getText(h, keys.playlist(rung)));
        expect(Number(target?.[1]), `target duration of ${rung}`).toBeGreaterThanOrEqual(1);
      }

      const play = await tempDir();
      try {
        const played = await playFromStorage(h, track.trackId, play.path);
        expect(Math.abs(played - seconds)).toBeLessThan(0.2);
        if (file.startsWith("surround-5.1")) {
          const opus = join(play.path, "stereo.opus");
          await download(keys.opus(rungs[0] ?? 0), opus);
          const [left, right] = await channelPeaks(opus);
          expect(Math.abs((left ?? 0) - CENTRE_PEAK_DB), "left").toBeLessThan(1);
          expect(Math.abs((right ?? 0) - CENTRE_PEAK_DB), "right").toBeLessThan(1);
        }
      } finally {
        await play.remove();
      }
    },
  );
});
