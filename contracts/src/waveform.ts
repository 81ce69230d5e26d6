import { z } from "zod";

/** How many peaks a track's waveform has, whatever its length. */
export const WAVEFORM_POINTS = 2_000;

/**
 * A track's waveform, computed by the transcoder during conversion and served as JSON by the
 * Worker (`GET /api/v1/tracks/{id}/waveform`). `peaks[i]` is the largest absolute sample of the
 * i-th of `points` equal slices of the track (all channels mixed to mono), divided by the loudest
 * one: 0–1, three decimals, so a quiet track still fills its bar. `peak` is that loudest sample
 * as a fraction of full scale (0 for digital silence, whose peaks are all 0).
 */
export const Waveform = z.object({
  version: z.literal(1),
  points: z.number().int().positive(),
  /** Seconds, as the track's `duration`. */
  duration: z.number().nonnegative(),
  peak: z.number().min(0).max(1),
  peaks: z.array(z.number().min(0).max(1)),
});
export type Waveform = z.infer<typeof Waveform>;
