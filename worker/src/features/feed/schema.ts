import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../validation/common.ts";
import { AlbumSummaryDto } from "../albums/schema.ts";
import { TrackDto } from "../tracks/catalogue/schema.ts";

export const FEED_MAX_LIMIT = 50;

export const FeedQuery = z.object({
  limit: z.coerce
    .number()
    .int("must be a whole number")
    .min(1, "at least 1")
    .max(FEED_MAX_LIMIT, `at most ${FEED_MAX_LIMIT}`)
    .default(20)
    .openapi({ param: { name: "limit", in: "query" }, example: 20 }),
  cursor: z
    .string()
    .max(200, "not a cursor of this feed")
    .optional()
    .openapi({
      param: { name: "cursor", in: "query" },
      description: "`nextCursor` of the page before; none for the first page.",
    }),
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({
      param: { name: "since", in: "query" },
      description:
        "The listener's last visit: the answer counts what came out after it (`newSince`).",
      example: "2026-11-20T18:00:00Z",
    }),
});

export const FeedItemDto = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("track"), at: Timestamp, track: TrackDto }),
    z.object({ type: z.literal("album"), at: Timestamp, album: AlbumSummaryDto }),
  ])
  .openapi("FeedItem", {
    description:
      "A release of a followed artist: a single (a READY track on no album) or an album with at least one READY track; `at` is when it came out (the track's or the album's creation).",
  });

export const FeedDto = z
  .object({
    items: z.array(FeedItemDto),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: "The next page's cursor; null: none." }),
    newSince: z.number().int().min(0).nullable().openapi({
      description: "How many releases came out after `since`; null when `since` was not sent.",
    }),
  })
  .openapi("Feed");

export type FeedInput = z.infer<typeof FeedQuery>;
export type FeedView = z.infer<typeof FeedDto>;
export type FeedItemView = z.infer<typeof FeedItemDto>;
