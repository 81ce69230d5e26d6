import { z } from "@hono/zod-openapi";
import { TrackDto } from "../catalogue/schema.ts";

export const TRENDING_MAX = 100;
export const TRENDING_WINDOWS = ["day", "week"] as const;
export type TrendingWindow = (typeof TRENDING_WINDOWS)[number];

export const TrendingQuery = z.object({
  window: z
    .enum(TRENDING_WINDOWS)
    .default("day")
    .openapi({ param: { name: "window", in: "query" }, example: "day" }),
  limit: z.coerce
    .number()
    .int("must be a whole number")
    .min(1, "at least 1")
    .max(TRENDING_MAX, `at most ${TRENDING_MAX}`)
    .default(20)
    .openapi({ param: { name: "limit", in: "query" }, example: 20 }),
});

export const TrendingTrackDto = TrackDto.extend({
  rank: z.number().int().min(1).openapi({ example: 1 }),
  score: z
    .number()
    .openapi({ description: "The ranking's score (see the operation).", example: 12.5 }),
  listeners: z.number().int().min(0).openapi({
    description: "Distinct listeners of the window (per day, summed over its days).",
  }),
  likes: z.number().int().min(0).openapi({ description: "Likes made in the window." }),
}).openapi("TrendingTrack");

export type TrendingTrackView = z.infer<typeof TrendingTrackDto>;
