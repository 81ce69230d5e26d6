import { BITRATES, LOW_BITRATES } from "@edge-music/contracts";

const LOSSLESS = new Set(["flac", "alac", "wavpack", "ape", "tta", "mlp", "truehd"]);

/** PCM and losslessly compressed codecs: judged by the PCM they decode to (see interpretProbe). */
export function isLossless(codec: string): boolean {
  return codec.startsWith("pcm_") || LOSSLESS.has(codec);
}

/**
 * The variants of a source, kbps ascending (spec: never above the source bitrate). Every rung of
 * the ladder not above the source's bitrate, compared exactly: sources encoded at a ladder rate
 * report it exactly (MP3 frame headers, PCM arithmetic), so only a genuinely lower average, such
 * as a VBR file's 191.9, misses a rung. Below the ladder, one variant at the highest standard low
 * bitrate not above the source.
 *
 * Below 32 kbps (voice memos in AMR or HE-AAC, 8-bit 4 kHz PCM) a source still gets 32 rather than
 * failing: the few kbps above it buy nothing but cost next to nothing, while refusing would lose a
 * track that plays; 32 is the lowest rate at which the AAC-LC and Opus outputs remain listenable.
 * An unmeasurable bitrate (0) gets 32 by the same rule.
 */
export function selectRungs(source: { kbps: number }): number[] {
  const ladder = BITRATES.filter((rate) => rate <= source.kbps);
  if (ladder.length > 0) return ladder;
  const low = LOW_BITRATES.filter((rate) => rate <= source.kbps).at(-1);
  return [low ?? LOW_BITRATES[0]];
}
