import { stat } from "node:fs/promises";
import { UnrecoverableError } from "bullmq";
import { packetArgs, probeArgs } from "./ffmpeg/args.ts";
import { lastLine, runTool } from "./ffmpeg/run.ts";
import { isLossless } from "./rungs.ts";

export interface SourceInfo {
  codec: string;
  lossless: boolean;
  /** Seconds of audio: the target every output is checked against. */
  duration: number;
  /** Kbps; for lossless sources, whatever the container says (unused for the ladder). */
  kbps: number;
}

/** What ffprobe's JSON says, before anything is measured. */
export interface ProbeFacts {
  codec: string;
  lossless: boolean;
  duration: number;
  /** The stream's own bit_rate, kbps; absent for many Ogg and some MP4 files. */
  streamKbps: number | undefined;
  /** The container's average (includes its overhead): the last resort. */
  formatKbps: number | undefined;
  /** The demuxer guessed the duration from a bitrate (MP3 without a Xing header): not to be trusted. */
  durationEstimated: boolean;
}

interface ProbeJson {
  streams?: Array<{
    codec_type?: string;
    codec_name?: string;
    channels?: number;
    sample_rate?: string;
    duration?: string;
    bit_rate?: string;
  }>;
  format?: { duration?: string; bit_rate?: string };
}

const positive = (text: string | undefined) => {
  const value = Number(text);
  return text !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
};

/** Reads ffprobe's output; throws UnrecoverableError for what can never be converted. */
export function interpretProbe(json: ProbeJson, warnings: string): ProbeFacts {
  const audio = json.streams?.find((s) => s.codec_type === "audio");
  if (!audio) throw new UnrecoverableError("the file has no audio stream");
  // What ffprobe reports when it guessed a format from noise and found no decodable frame.
  if (!audio.channels || !positive(audio.sample_rate)) {
    throw new UnrecoverableError("not a readable audio file (no decodable audio frames)");
  }
  const codec = audio.codec_name ?? "unknown";
  const kbps = (text: string | undefined) => {
    const bitRate = positive(text);
    return bitRate === undefined ? undefined : bitRate / 1000;
  };
  return {
    codec,
    lossless: isLossless(codec),
    duration: positive(audio.duration) ?? positive(json.format?.duration) ?? 0,
    streamKbps: kbps(audio.bit_rate),
    formatKbps: kbps(json.format?.bit_rate),
    durationEstimated: warnings.includes("Estimating duration from bitrate"),
  };
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

/** Probes the downloaded source: rejects what can never succeed, measures what the ladder needs. */
export async function probeSource(file: string, options: ProbeOptions): Promise<SourceInfo> {
  const { size } = await stat(file);
  if (size === 0) throw new UnrecoverableError("the uploaded file is empty");
  const run = { timeoutMs: options.timeoutMs, signal: options.signal };
  const probe = await runTool("ffprobe", probeArgs(file), run);
  if (probe.code !== 0) {
    const detail = lastLine(probe.stderr).replace(`${file}: `, "");
    throw new UnrecoverableError(`not a readable audio file (${detail || "ffprobe failed"})`);
  }
  let json: ProbeJson;
  try {
    json = JSON.parse(probe.stdout) as ProbeJson;
  } catch {
    throw new UnrecoverableError("not a readable audio file (unparseable probe output)");
  }
  const facts = interpretProbe(json, probe.stderr);
  let { duration } = facts;
  let kbps = facts.streamKbps;
  // Summing packets is exact and cheap (0.1 s for 4 min); needed when the bitrate is missing or
  // the duration was guessed from the first frame's bitrate (VBR MP3 without a Xing header).
  if (!facts.lossless && (kbps === undefined || facts.durationEstimated)) {
    const packets = await runTool("ffprobe", packetArgs(file), run);
    const summary = packets.code === 0 ? summarisePackets(packets.stdout) : null;
    if (summary) {
      kbps = summary.kbps;
      if (facts.durationEstimated || duration === 0) duration = summary.duration;
    }
  }
  if (!(duration > 0)) throw new UnrecoverableError("the file contains no audio (duration 0)");
  if (duration > options.maxDurationSeconds) {
    throw new UnrecoverableError(
      `the audio lasts ${clock(duration)}; the limit is ${clock(options.maxDurationSeconds)}`,
    );
  }
  return {
    codec: facts.codec,
    lossless: facts.lossless,
    duration,
    kbps: kbps ?? facts.formatKbps ?? 0,
  };
}
