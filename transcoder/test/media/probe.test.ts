import { describe, expect, it } from "vitest";
import { BadInputError } from "../../src/media/bad-input.ts";
import { interpretProbe, summarisePackets } from "../../src/media/probe.ts";

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
      sampleKbps: undefined,
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

  it("judges PCM, ADPCM and lossless sources by rate × bits × channels", () => {
    // What ffprobe reports for each (bits_per_sample for PCM, bits_per_raw_sample for FLAC/ALAC).
    const cases: Array<[string, Record<string, unknown>, number]> = [
      [
        "8 kHz mono 16-bit WAV",
        { codec_name: "pcm_s16le", sample_rate: "8000", channels: 1, bits_per_sample: 16 },
        128,
      ],
      [
        "8 kHz mono µ-law WAV",
        { codec_name: "pcm_mulaw", sample_rate: "8000", channels: 1, bits_per_sample: 8 },
        64,
      ],
      [
        "192 kHz 24-bit stereo WAV",
        { codec_name: "pcm_s24le", sample_rate: "192000", channels: 2, bits_per_sample: 24 },
        9216,
      ],
      [
        "96 kHz 32-bit stereo WAV",
        { codec_name: "pcm_s32le", sample_rate: "96000", channels: 2, bits_per_sample: 32 },
        6144,
      ],
      [
        "48 kHz float 5.1 WAV",
        { codec_name: "pcm_f32le", sample_rate: "48000", channels: 6, bits_per_sample: 32 },
        9216,
      ],
      [
        "8 kHz mono IMA ADPCM WAV, whose bit_rate ffprobe overstates",
        {
          codec_name: "adpcm_ima_wav",
          sample_rate: "8000",
          channels: 1,
          bits_per_sample: 4,
          bit_rate: "128000",
        },
        32,
      ],
      [
        "44.1 kHz 16-bit stereo FLAC",
        { codec_name: "flac", sample_rate: "44100", channels: 2, bits_per_raw_sample: "16" },
        1411.2,
      ],
      [
        "ALAC without a raw sample size: its decoded format's",
        { codec_name: "alac", sample_rate: "8000", channels: 1, sample_fmt: "s16p" },
        128,
      ],
    ];
    for (const [name, stream, kbps] of cases) {
      const facts = interpretProbe(
        // A FLAC's container rate is its compressed size: not what the ladder is judged by.
        {
          streams: [{ codec_type: "audio", bits_per_sample: 0, ...stream }],
          format: { bit_rate: "40000" },
        },
        "",
      );
      expect(facts.sampleKbps, name).toBeCloseTo(kbps, 6);
    }
    // A lossy codec's samples have no fixed size: its stream bitrate is what counts.
    const mp3 = { ...audio, bits_per_sample: 0, bits_per_raw_sample: "16", bit_rate: "64000" };
    expect(interpretProbe({ streams: [mp3] }, "")).toMatchObject({
      sampleKbps: undefined,
      streamKbps: 64,
    });
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

  it("finds the attached picture by its disposition: its stream index, its size when known", () => {
    const cover = (index: number, extra: Record<string, unknown> = {}) => ({
      codec_type: "video",
      codec_name: "png",
      index,
      disposition: { attached_pic: 1 },
      ...extra,
    });
    const probe = (streams: Array<Record<string, unknown>>) =>
      interpretProbe({ streams: [{ ...audio, index: 0 }, ...streams] }, "").picture;
    expect(probe([cover(1, { width: 1600, height: 900 })])).toEqual({
      stream: 1,
      width: 1600,
      height: 900,
    });
    // A size ffprobe could not read (an undecodable picture) is 0: unknown, decided by decoding.
    expect(probe([cover(2, { width: 0, height: 0 })])).toEqual({
      stream: 2,
      width: undefined,
      height: undefined,
    });
    // A video stream that is not an attached picture (an MP4's real video) is no cover.
    const video = {
      codec_type: "video",
      codec_name: "h264",
      index: 1,
      disposition: { attached_pic: 0 },
    };
    expect(probe([video])).toBeUndefined();
    expect(probe([video, cover(2)])).toMatchObject({ stream: 2 });
    expect(probe([])).toBeUndefined();
  });

  it("refuses a file without audio, or with an audio stream nothing can decode", () => {
    const noAudio = () => interpretProbe({ streams: [{ codec_type: "video" }] }, "");
    expect(noAudio).toThrow(BadInputError);
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
