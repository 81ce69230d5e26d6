import { BITRATES } from "@edge-music/contracts";

const LOSSLESS = new Set(["flac", "alac", "wavpack", "ape", "tta", "mlp", "truehd"]);

/** Lossless sources count as above every rung, whatever their measured bitrate. */
export function isLossless(codec: string): boolean {
  return codec.startsWith("pcm_") || LOSSLESS.has(codec);
}

/**
 * Measured bitrates wobble around the nominal one (a 192k CBR file reads 191.9 or 192.1 kbps),
 * so a rung still counts as "not above the source" within this margin.
 */
const SLACK = 1.05;

/**
 * The ladder for a source (spec: never above the source bitrate). A source below the lowest rung
 * still gets that rung: a track must be playable.
 */
export function selectRungs(source: { lossless: boolean; kbps: number }): number[] {
  if (source.lossless) return [...BITRATES];
  const fitting = BITRATES.filter((rate) => rate <= source.kbps * SLACK);
  return fitting.length > 0 ? fitting : [BITRATES[0]];
}
