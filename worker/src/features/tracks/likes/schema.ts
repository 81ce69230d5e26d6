import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../../validation/common.ts";
import { TrackDto } from "../catalogue/schema.ts";

export const TrackLikeStateDto = z
  .object({
    liked: z.boolean(),
    _count: z.object({ likes: z.number().int().min(0).openapi({ example: 12 }) }),
  })
  .openapi("TrackLikeState");

export const LikedTrackDto = TrackDto.extend({ likedAt: Timestamp }).openapi("LikedTrack", {
  description: "A track the caller likes, with when they liked it.",
});

/** The most ids `GET /tracks/me/liked/ids` answers: a player's heart state for every row. */
export const LIKED_IDS_MAX = 10_000;

export const LikedTrackIdsDto = z
  .array(z.uuid())
  .max(LIKED_IDS_MAX)
  .openapi("LikedTrackIds", { description: "Track ids, most recent like first." });

export type TrackLikeState = z.infer<typeof TrackLikeStateDto>;
export type LikedTrackView = z.infer<typeof LikedTrackDto>;
