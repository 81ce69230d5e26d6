import { z } from "@hono/zod-openapi";
import { TrackDto } from "../catalogue/schema.ts";

export const RELATED_MAX = 50;

export const RelatedQuery = z.object({
  limit: z.coerce
    .number()
    .int("must be a whole number")
    .min(1, "at least 1")
    .max(RELATED_MAX, `at most ${RELATED_MAX}`)
    .default(10)
    .openapi({ param: { name: "limit", in: "query" }, example: 10 }),
});

export const RelatedTrackDto = TrackDto.extend({
  coListeners: z.number().int().min(1).openapi({
    description: "How many listeners of the track asked about also played this one.",
    example: 4,
  }),
}).openapi("RelatedTrack");

export type RelatedTrackView = z.infer<typeof RelatedTrackDto>;
