/** The playback loudness target, LUFS (EBU R128 integrated loudness). */
export const TARGET_LOUDNESS_LUFS = -14;
/** The ceiling a gain may lift the true peak to, dBTP (headroom for lossy decoders' overshoot). */
export const MAX_TRUE_PEAK_DBTP = -1;

/** The HLS master playlist's `#EXT-X-SESSION-DATA` id carrying the gain (VALUE: dB, one decimal). */
export const PLAYBACK_GAIN_DATA_ID = "com.edge-music.gain";

export interface MeasuredLoudness {
  /** Null when nothing was loud enough to gate (silence, or shorter than one 400 ms block). */
  integratedLufs: number | null;
  /** Null for digital silence, or when it could not be read. */
  truePeakDbtp: number | null;
}

/**
 * The gain, in dB, a player applies to bring a track to −14 LUFS, capped so that the true peak
 * plus the gain stays at or below −1 dBTP. Rounded DOWN to 0.1 dB: rounding to the nearest could
 * lift a peak-capped gain past the ceiling. Null when the loudness is unknown (silence): no gain.
 * An unknown true peak allows no boost, only attenuation, which cannot clip.
 */
export function playbackGainDb(loudness: MeasuredLoudness): number | null {
  const { integratedLufs, truePeakDbtp } = loudness;
  if (integratedLufs === null || !Number.isFinite(integratedLufs)) return null;
  const toTarget = TARGET_LOUDNESS_LUFS - integratedLufs;
  const headroom =
    truePeakDbtp !== null && Number.isFinite(truePeakDbtp) ? MAX_TRUE_PEAK_DBTP - truePeakDbtp : 0;
  // The epsilon keeps 3.3 (stored as 3.2999999999999998) from flooring to 3.2.
  const tenths = Math.floor(Math.min(toTarget, headroom) * 10 + 1e-9);
  // `|| 0` turns −0 into 0, so that it prints as "0.0".
  return tenths / 10 || 0;
}
