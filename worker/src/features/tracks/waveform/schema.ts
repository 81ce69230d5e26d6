import { WAVEFORM_POINTS, type Waveform } from "@edge-music/contracts";
import { z } from "@hono/zod-openapi";

const Level = z.number().min(0).max(1);

/** The document's view of the contract's `Waveform` (the transcoder writes it, we serve it). */
export const WaveformDto = z
  .object({
    version: z.literal(1).openapi({ description: "The format; another shape gets another." }),
    points: z
      .number()
      .int()
      .positive()
      .openapi({
        example: WAVEFORM_POINTS,
        description: `How many peaks: ${WAVEFORM_POINTS}, whatever the track's length.`,
      }),
    duration: z
      .number()
      .nonnegative()
      .openapi({ example: 215.5, description: "Seconds, as the track's `duration`." }),
    peak: Level.openapi({
      example: 0.891,
      description:
        "The loudest sample as a fraction of full scale (0 for digital silence): the scale of `peaks`.",
    }),
    peaks: z.array(Level).openapi({
      example: [0, 0.412, 1, 0.733],
      description:
        "`points` values: peaks[i] is the largest absolute sample of the i-th of `points` equal slices of the track (channels mixed to mono), divided by the loudest one (0–1, three decimals), so a quiet track still fills its bar. Draw slice i at `i / points` of the duration.",
    }),
  })
  .openapi("Waveform");

// Mirrors the contract: this line stops compiling when the two part.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<z.infer<typeof WaveformDto>, Waveform>;
