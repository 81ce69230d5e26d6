export interface Loudness {
  /** EBU R128 integrated loudness, LUFS; null when ffmpeg could not gate any block (silence). */
  integratedLufs: number | null;
  /** True peak (dBTP; ffmpeg labels it dBFS); null for digital silence (-inf). */
  truePeakDbtp: number | null;
}

const finite = (text: string | undefined) => {
  const value = text === undefined ? Number.NaN : Number(text);
  return Number.isFinite(value) ? value : null;
};

/**
 * Reads the summary the `ebur128=peak=true` filter logs when the stream ends:
 *
 *   Integrated loudness:
 *     I:         -26.1 LUFS
 *   ...
 *   True peak:
 *     Peak:      -12.3 dBFS
 *
 * Only the text after the last "Summary:" counts (per-frame lines also carry "I:").
 * Null when there is no summary at all (the filter never ran).
 */
export function parseLoudness(stderr: string): Loudness | null {
  const at = stderr.lastIndexOf("Summary:");
  if (at < 0) return null;
  const summary = stderr.slice(at);
  const integrated = /Integrated loudness:\s*\n\s*I:\s*(\S+)\s*LUFS/.exec(summary);
  const peak = /True peak:\s*\n\s*Peak:\s*(\S+)\s*dBFS/.exec(summary);
  if (!integrated) return null;
  const lufs = finite(integrated[1]);
  return {
    // ffmpeg reports -70.0 LUFS (its floor) when every block is below the absolute gate.
    integratedLufs: lufs !== null && lufs > -70 ? lufs : null,
    truePeakDbtp: finite(peak?.[1]),
  };
}
