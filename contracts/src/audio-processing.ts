import { z } from "zod";

/**
 * The conversion queue, in ONE place: the Worker adds jobs with these names and options, the
 * transcoder consumes them and parses the payload with the same schema. Runs in Workers and Node
 * (no imports beyond zod).
 */
export const AUDIO_PROCESSING_QUEUE = "audio-processing";

/**
 * BullMQ's key prefix for the conversion queue (keys are `<prefix>:<queue>:<suffix>`). The braces
 * are a Redis Cluster hash tag: only `audio-processing` is hashed, so every key of the queue lands
 * in one slot, which BullMQ's multi-key Lua scripts require (else CROSSSLOT). Harmless on a single
 * Redis. Both sides must use it: a queue under another prefix is another queue (ADR 0005).
 */
export const AUDIO_PROCESSING_QUEUE_PREFIX = "{audio-processing}";

export { AUDIO_PROCESSING_JOB_OPTIONS } from "./job-options.ts";

export const AUDIO_PROCESSING_JOB_NAME = "convert-audio";

export const AudioJobPayload = z.object({
  trackId: z.uuid(),
  artistId: z.uuid(),
  /** The uploaded source in object storage (a temporary key under the track). */
  sourceKey: z.string().min(1).max(1024),
  /** The name the artist's file had, sanitised; informative only. */
  sourceFileName: z.string().min(1).max(200),
});
export type AudioJobPayload = z.infer<typeof AudioJobPayload>;

/**
 * A file name as BullMQ job ids and storage keys allow: letters, digits, `.`, `_`, `-`; anything
 * else becomes `_` (`:` is BullMQ's key separator). Never empty, at most 100 characters.
 */
export function sanitizeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[._]+/, "")
    .slice(-100);
  return cleaned.length > 0 ? cleaned : "upload";
}

/** Spec: `convert-audio-<trackId>-<sourceFileName>`. Deterministic, so re-adding is idempotent. */
export function audioJobId(trackId: string, sourceFileName: string): string {
  return `${AUDIO_PROCESSING_JOB_NAME}-${trackId}-${sanitizeFileName(sourceFileName)}`;
}

/** Where a track's source and outputs live in object storage. */
export const trackKeys = (trackId: string) => ({
  prefix: `tracks/${trackId}/`,
  source: (fileName: string) => `tracks/${trackId}/source/${sanitizeFileName(fileName)}`,
  opus: (kbps: number) => `tracks/${trackId}/audio/${kbps}k.opus`,
  /** One rung of the AAC ladder as one whole MP4 file (its HLS segments joined). */
  aac: (kbps: number) => `tracks/${trackId}/audio/${kbps}k.m4a`,
  master: `tracks/${trackId}/hls/master.m3u8`,
  playlist: (kbps: number) => `tracks/${trackId}/hls/${kbps}/index.m3u8`,
  init: (kbps: number) => `tracks/${trackId}/hls/${kbps}/init_0.mp4`,
  segment: (kbps: number, index: number) =>
    `tracks/${trackId}/hls/${kbps}/segment_${String(index).padStart(5, "0")}.m4s`,
  /** The peaks for drawing a seek bar (`Waveform`), written with the other outputs. */
  waveform: `tracks/${trackId}/waveform.json`,
});

/** The ladder of the spec, in kbps: a source gets every rung not above its own bitrate. */
export const BITRATES = [128, 192, 320] as const;
export type Bitrate = (typeof BITRATES)[number];

/**
 * Standard AAC/Opus bitrates below the ladder, in kbps. A source below 128 kbps gets one variant
 * instead of rungs: the highest of these not above its bitrate (32 for anything lower still).
 */
export const LOW_BITRATES = [32, 48, 64, 96] as const;

/**
 * Every bitrate a track's variant may be named by (`hls/<kbps>/…`, `audio/<kbps>k.opus`), in kbps:
 * what a stream URL's bitrate is checked against.
 */
export const VARIANT_BITRATES = [...LOW_BITRATES, ...BITRATES] as const;
export type VariantBitrate = (typeof VARIANT_BITRATES)[number];
