import type { MediaPlaylist } from "./hls/media-playlist.ts";
import { segmentIndex } from "./hls/media-playlist.ts";

/** Outputs and source may differ by this much (AAC/Opus framing, encoder delay). */
export const DURATION_TOLERANCE = 0.5;

export interface ConversionOutputs {
  /** The probed source duration, seconds. */
  duration: number;
  renditions: ReadonlyArray<{ rung: number; playlist: MediaPlaylist }>;
  opus: ReadonlyArray<{ rung: number; duration: number }>;
}

const s = (seconds: number) => `${seconds.toFixed(1)} s`;

/**
 * An output that could not be read back although the source decoded in full: a fault of this
 * machine (the ffprobe measuring it was killed or failed), not of the file. Not a
 * BadInputError, so the attempt is retried.
 */
export class OutputUnreadableError extends Error {
  override name = "OutputUnreadableError";
}

/**
 * What must hold before anything is uploaded; returns the first problem, or null. ffmpeg exits 0
 * after decoding only part of a truncated MP3/FLAC/M4A, so a short output means a damaged source.
 * Throws OutputUnreadableError when an Opus file reads as empty (duration 0, what an unreadable
 * output is measured as) while the HLS renditions prove the whole source decoded.
 */
export function checkOutputs({ duration, renditions, opus }: ConversionOutputs): string | null {
  const first = renditions[0];
  if (!first) return "the conversion produced no HLS rendition";
  for (const { rung, playlist } of renditions) {
    const problem = checkRendition(rung, playlist, duration);
    if (problem) return problem;
    const same =
      playlist.segments.length === first.playlist.segments.length &&
      playlist.segments.every((seg, i) => seg.extinf === first.playlist.segments[i]?.extinf);
    if (!same) return `HLS rendition ${rung} is not aligned with rendition ${first.rung}`;
  }
  for (const output of opus) {
    if (output.duration === 0) {
      throw new OutputUnreadableError(
        `the converted Opus ${output.rung}k file could not be read back (a temporary fault)`,
      );
    }
    if (Math.abs(output.duration - duration) > DURATION_TOLERANCE) {
      return mismatch(`Opus ${output.rung}k`, output.duration, duration);
    }
  }
  return null;
}

function checkRendition(rung: number, playlist: MediaPlaylist, duration: number): string | null {
  const name = `HLS rendition ${rung}`;
  if (!playlist.ended || playlist.segments.length === 0 || !playlist.mapUri) {
    return `${name} is incomplete`;
  }
  const badName = playlist.segments.findIndex((seg, i) => segmentIndex(seg.uri) !== i);
  if (badName >= 0) return `${name} has an unexpected segment name at position ${badName}`;
  const limit = playlist.targetDuration + DURATION_TOLERANCE;
  const long = playlist.segments.find((seg) => !(seg.duration <= limit));
  if (long) return `${name} has a ${long.extinf} s segment (target ${playlist.targetDuration} s)`;
  const total = playlist.segments.reduce((sum, seg) => sum + seg.duration, 0);
  if (Math.abs(total - duration) > DURATION_TOLERANCE) return mismatch(name, total, duration);
  return null;
}

function mismatch(what: string, actual: number, expected: number): string {
  return actual < expected
    ? `the source is damaged or truncated: only ${s(actual)} of ${s(expected)} could be decoded (${what})`
    : `${what} lasts ${s(actual)}, the source ${s(expected)}`;
}
