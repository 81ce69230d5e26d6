import { PLAYBACK_GAIN_DATA_ID } from "@edge-music/contracts";

export interface VariantMeasure {
  /** Kbps of the rung: its folder name. */
  rung: number;
  targetDuration: number;
  /** Measured bytes of each media segment and its EXTINF, in order. */
  segments: ReadonlyArray<{ bytes: number; duration: number }>;
}

export interface Bandwidth {
  /** Peak segment bit rate, bits/s (RFC 8216 BANDWIDTH). */
  peak: number;
  /** Average segment bit rate, bits/s (AVERAGE-BANDWIDTH). */
  average: number;
}

/**
 * From measured sizes, not the nominal rate: ffmpeg's own master says nominal × 1.1, while the
 * "320k" AAC rung really delivers ~250 kbps and players pick renditions from these numbers.
 * Peak follows RFC 8216: the highest rate of any run of consecutive segments lasting 0.5–1.5 ×
 * the target duration (a lone 20 ms tail segment is judged together with its neighbour). The
 * init segment is fetched once per rendition switch, not per segment, and is left out.
 */
export function measureBandwidth(variant: VariantMeasure): Bandwidth {
  const { segments } = variant;
  const totalBytes = segments.reduce((sum, s) => sum + s.bytes, 0);
  const totalDuration = segments.reduce((sum, s) => sum + s.duration, 0);
  const average = totalDuration > 0 ? (totalBytes * 8) / totalDuration : 0;
  const min = variant.targetDuration * 0.5;
  const max = variant.targetDuration * 1.5;
  let peak = 0;
  for (let start = 0; start < segments.length; start++) {
    let bytes = 0;
    let duration = 0;
    for (let end = start; end < segments.length; end++) {
      const segment = segments[end];
      if (!segment || duration + segment.duration > max) break;
      bytes += segment.bytes;
      duration += segment.duration;
      if (duration >= min) peak = Math.max(peak, (bytes * 8) / duration);
    }
  }
  // A track shorter than half a segment has no qualifying run: its average is its peak.
  return { peak: Math.ceil(Math.max(peak, average)), average: Math.ceil(average) };
}

/**
 * The master playlist, renditions ordered by bandwidth (players start with the first). With a
 * gain (dB, see playbackGainDb), it carries it as session data; without one (silence), nothing.
 */
export function masterPlaylist(
  variants: readonly VariantMeasure[],
  gainDb: number | null = null,
): string {
  const measured = variants
    .map((variant) => ({ rung: variant.rung, ...measureBandwidth(variant) }))
    .sort((a, b) => a.peak - b.peak || a.rung - b.rung);
  const lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"];
  if (gainDb !== null) {
    lines.push(
      `#EXT-X-SESSION-DATA:DATA-ID="${PLAYBACK_GAIN_DATA_ID}",VALUE="${gainDb.toFixed(1)}"`,
    );
  }
  for (const { rung, peak, average } of measured) {
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${peak},AVERAGE-BANDWIDTH=${average},CODECS="mp4a.40.2"`,
      `${rung}/index.m3u8`,
    );
  }
  return `${lines.join("\n")}\n`;
}
