import { UnrecoverableError } from "bullmq";
import { describe, expect, it } from "vitest";
import { interpretProbe, summarisePackets } from "../src/probe.ts";
import { isLossless, selectRungs } from "../src/rungs.ts";

describe("selectRungs", () => {
  it.each([
    ["a lossless source gets every rung, whatever its bitrate", true, 700, [128, 192, 320]],
    ["320 kbps gets every rung", false, 320, [128, 192, 320]],
    ["320 kbps measured a hair low still gets 320", false, 319.4, [128, 192, 320]],
    ["192 kbps gets 128 and 192 (spec example)", false, 192, [128, 192]],
    ["192 kbps measured at 191.9 still gets 192", false, 191.9, [128, 192]],
    ["256 kbps AAC stops at 192", false, 256, [128, 192]],
    ["160 kbps gets 128 only", false, 160, [128]],
    ["96 kbps still gets 128: a track must be playable", false, 96, [128]],
    ["an unknown bitrate (0) gets 128", false, 0, [128]],
  ])("%s", (_, lossless, kbps, rungs) => {
    expect(selectRungs({ lossless, kbps })).toEqual(rungs);
  });

  it("knows the lossless codecs", () => {
    for (const codec of ["pcm_s16le", "pcm_f32le", "flac", "alac", "wavpack", "ape", "tta"]) {
      expect(isLossless(codec), codec).toBe(true);
    }
    for (const codec of ["mp3", "aac", "vorbis", "opus"])
      expect(isLossless(codec), codec).toBe(false);
  });
});

describe("interpretProbe", () => {
  const audio = { codec_type: "audio", codec_name: "mp3", channels: 2, sample_rate: "44100" };

  it("takes the stream's duration and bitrate, the container's as fallbacks", () => {
    expect(
      interpretProbe(
        {
          streams: [{ ...audio, duration: "12.04", bit_rate: "192000" }],
          format: { duration: "12.1", bit_rate: "193000" },
        },
        "",
      ),
    ).toEqual({
      codec: "mp3",
      lossless: false,
      duration: 12.04,
      streamKbps: 192,
      formatKbps: 193,
      durationEstimated: false,
    });
    const ogg = interpretProbe(
      {
        streams: [{ ...audio, codec_name: "opus" }],
        format: { duration: "12.0065", bit_rate: "84850" },
      },
      "",
    );
    expect(ogg).toMatchObject({ duration: 12.0065, streamKbps: undefined, formatKbps: 84.85 });
  });

  it("flags a duration ffmpeg only estimated (MP3 without a Xing header)", () => {
    const facts = interpretProbe(
      { streams: [{ ...audio, duration: "11.59" }] },
      "[mp3 @ 0x1] Estimating duration from bitrate, this may be inaccurate\n",
    );
    expect(facts.durationEstimated).toBe(true);
  });

  it("skips a cover image and finds the audio stream", () => {
    const facts = interpretProbe(
      {
        streams: [
          { codec_type: "video", codec_name: "mjpeg" },
          { ...audio, codec_name: "flac", duration: "30" },
        ],
      },
      "",
    );
    expect(facts).toMatchObject({ codec: "flac", lossless: true, duration: 30 });
  });

  it("refuses a file without audio, or with an audio stream nothing can decode", () => {
    const noAudio = () => interpretProbe({ streams: [{ codec_type: "video" }] }, "");
    expect(noAudio).toThrow(UnrecoverableError);
    expect(noAudio).toThrow("the file has no audio stream");
    // What random bytes named .mp3 look like to ffprobe.
    const noise = () => interpretProbe({ streams: [{ ...audio, channels: 0 }] }, "");
    expect(noise).toThrow(/not a readable audio file/);
  });
});

describe("summarisePackets", () => {
  it("sums durations and sizes into an exact duration and bitrate", () => {
    const csv = "0.026122,1044\n0.026122,418\n0.026122,836\n";
    const summary = summarisePackets(csv);
    expect(summary?.duration).toBeCloseTo(0.078366, 6);
    expect(summary?.kbps).toBeCloseTo(((1044 + 418 + 836) * 8) / 0.078366 / 1000, 6);
  });

  it("ignores N/A fields and returns null without packets", () => {
    expect(summarisePackets("N/A,100\n0.5,100\n")?.duration).toBe(0.5);
    expect(summarisePackets("")).toBeNull();
  });
});
