import { stat } from "node:fs/promises";
import { BadInputError } from "./bad-input.ts";
import { packetArgs, probeArgs, type SourceFile } from "./ffmpeg/args.ts";
import { lastLine, runTool } from "./ffmpeg/run.ts";
import { isLossless } from "./rungs.ts";

export interface SourceInfo {
  codec: string;
  lossless: boolean;
  /** Seconds of audio: the target every output is checked against. */
  duration: number;
  /** The source bitrate the ladder is judged by, kbps (for PCM and lossless ones, see sampleKbps). */
  kbps: number;
  /** The cover art the file carries, if any. */
  picture: AttachedPicture | undefined;
}

/**
 * A picture the container carries beside the audio (ID3 APIC, FLAC or Vorbis picture block, MP4
 * `covr`): ffmpeg shows it as a video stream of one frame with the `attached_pic` disposition.
 */
export interface AttachedPicture {
  /** Its stream's index in the source, as `-map 0:<index>` takes it. */
  stream: number;
  /** Pixels, when ffprobe could read them from the picture's header. */
  width: number | undefined;
  height: number | undefined;
}

/** What ffprobe's JSON says, before anything is measured. */
export interface ProbeFacts {
  codec: string;
  lossless: boolean;
  duration: number;
  /** Fixed-size samples (PCM, ADPCM) or lossless: rate × bits × channels, kbps (see sampleKbps). */
  sampleKbps: number | undefined;
  /** The stream's own bit_rate, kbps; absent for many Ogg and some MP4 files. */
  streamKbps: number | undefined;
  /** The container's average (includes its overhead): the last resort. */
  formatKbps: number | undefined;
  /** The demuxer guessed the duration from a bitrate (MP3 without a Xing header): not to be trusted. */
  durationEstimated: boolean;
  picture: AttachedPicture | undefined;
}

interface ProbeJson {
  streams?: Array<{
    codec_type?: string;
    codec_name?: string;
    channels?: number;
    sample_rate?: string;
    sample_fmt?: string;
    /** Bits per coded sample: 16 for pcm_s16le, 8 for µ-law, 0 for compressed codecs. */
    bits_per_sample?: number;
    /** Bits of the samples a lossless codec carries (FLAC, ALAC: 16 or 24), as text. */
    bits_per_raw_sample?: string;
    duration?: string;
    bit_rate?: string;
    index?: number;
    width?: number;
    height?: number;
    disposition?: { attached_pic?: number };
  }>;
  format?: { duration?: string; bit_rate?: string };
}

const positive = (text: string | undefined) => {
  const value = Number(text);
  return text !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
};

/** Reads ffprobe's output; throws BadInputError for what can never be converted. */
export function interpretProbe(json: ProbeJson, warnings: string): ProbeFacts {
  const audio = json.streams?.find((s) => s.codec_type === "audio");
  if (!audio) throw new BadInputError("the file has no audio stream");
  // What ffprobe reports when it guessed a format from noise and found no decodable frame.
  if (!audio.channels || !positive(audio.sample_rate)) {
    throw new BadInputError("not a readable audio file (no decodable audio frames)");
  }
  const codec = audio.codec_name ?? "unknown";
  const kbps = (text: string | undefined) => {
    const bitRate = positive(text);
    return bitRate === undefined ? undefined : bitRate / 1000;
  };
  const lossless = isLossless(codec);
  return {
    codec,
    lossless,
    duration: positive(audio.duration) ?? positive(json.format?.duration) ?? 0,
    sampleKbps: sampleKbps(audio, lossless),
    streamKbps: kbps(audio.bit_rate),
    formatKbps: kbps(json.format?.bit_rate),
    durationEstimated: warnings.includes("Estimating duration from bitrate"),
    picture: attachedPicture(json),
  };
}

function attachedPicture(json: ProbeJson): AttachedPicture | undefined {
  const found = json.streams?.find(
    (s) => s.codec_type === "video" && s.disposition?.attached_pic === 1,
  );
  if (found?.index === undefined) return undefined;
  const pixels = (value: number | undefined) => positive(String(value ?? ""));
  return { stream: found.index, width: pixels(found.width), height: pixels(found.height) };
}

/** Bits of each decoded sample format (the last resort for a lossless codec's sample size). */
const FORMAT_BITS: Record<string, number> = { u8: 8, s16: 16, s32: 32, flt: 32, dbl: 64, s64: 64 };

/**
 * Sample rate × bits × channels, kbps. Exact for codecs whose samples all have one coded size
 * (PCM, µ-law, ADPCM: ffprobe's bits_per_sample). ffprobe states an ADPCM WAV's bit_rate as
 * if it were 16-bit PCM, 4× too high.
 *
 * A lossless codec is judged by the PCM it decodes to, not by its compressed size: FLAC, ALAC or
 * WAV of one recording play identically and must get the same ladder, and a FLAC's compressed rate
 * measures how predictable the signal is (a quiet passage packs far tighter than a loud one), not
 * its quality. So CD audio is 1411 kbps in any container, and an 8 kHz mono 16-bit file is 128.
 */
function sampleKbps(
  audio: NonNullable<ProbeJson["streams"]>[number],
  lossless: boolean,
): number | undefined {
  const coded = positive(String(audio.bits_per_sample ?? ""));
  const decoded = lossless
    ? (positive(audio.bits_per_raw_sample) ??
      FORMAT_BITS[(audio.sample_fmt ?? "").replace(/p$/, "")])
    : undefined;
  const bits = coded ?? decoded;
  const rate = positive(audio.sample_rate);
  if (bits === undefined || rate === undefined || !audio.channels) return undefined;
  return (rate * bits * audio.channels) / 1000;
}

/** Sums `duration_time,size` lines: the exact length and average bitrate of the audio stream. */
export function summarisePackets(csv: string): { duration: number; kbps: number } | null {
  let duration = 0;
  let bytes = 0;
  for (const line of csv.split("\n")) {
    const [time, size] = line.split(",");
    const seconds = Number(time);
    const length = Number(size);
    if (Number.isFinite(seconds)) duration += seconds;
    if (Number.isFinite(length)) bytes += length;
  }
  return duration > 0 ? { duration, kbps: (bytes * 8) / duration / 1000 } : null;
}

export interface ProbeOptions {
  maxDurationSeconds: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** 1805.2 → "30:05". */
const clock = (seconds: number) => {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
};

/**
 * Codecs pad their last frame or block (MP3 and AAC by up to ~50 ms, an 8 kHz ADPCM WAV by
 * 0.16 s, Opus by its pre-skip): a source exactly at the length limit reads a little over it.
 */
const LIMIT_PADDING_SECONDS = 1;

/** Probes the downloaded source: rejects what can never succeed, measures what the ladder needs. */
export async function probeSource(source: SourceFile, options: ProbeOptions): Promise<SourceInfo> {
  const { size } = await stat(source.path);
  if (size === 0) throw new BadInputError("the uploaded file is empty");
  const run = { timeoutMs: options.timeoutMs, signal: options.signal };
  const probe = await runTool("ffprobe", probeArgs(source), run);
  if (probe.code !== 0) {
    const detail = lastLine(probe.stderr).replace(`${source.path}: `, "");
    throw new BadInputError(`not a readable audio file (${detail || "ffprobe failed"})`);
  }
  let json: ProbeJson;
  try {
    json = JSON.parse(probe.stdout) as ProbeJson;
  } catch {
    throw new BadInputError("not a readable audio file (unparseable probe output)");
  }
  const facts = interpretProbe(json, probe.stderr);
  let { duration } = facts;
  let kbps = facts.sampleKbps ?? facts.streamKbps;
  // Summing packets is exact and cheap (0.1 s for 4 min); needed when the bitrate is missing or
  // the duration was guessed from the first frame's bitrate (VBR MP3 without a Xing header).
  if (!facts.lossless && (kbps === undefined || facts.durationEstimated)) {
    const packets = await runTool("ffprobe", packetArgs(source), run);
    const summary = packets.code === 0 ? summarisePackets(packets.stdout) : null;
    if (summary) {
      kbps = summary.kbps;
      if (facts.durationEstimated || duration === 0) duration = summary.duration;
    }
  }
  if (!(duration > 0)) throw new BadInputError("the file contains no audio (duration 0)");
  if (duration > options.maxDurationSeconds + LIMIT_PADDING_SECONDS) {
    throw new BadInputError(
      `the audio lasts ${clock(duration)}; the limit is ${clock(options.maxDurationSeconds)}`,
    );
  }
  return {
    codec: facts.codec,
    lossless: facts.lossless,
    duration,
    // The container's average includes its overhead; without one, the file's size over its length.
    kbps: kbps ?? facts.formatKbps ?? (size * 8) / duration / 1000,
    picture: facts.picture,
  };
}
