import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../validation/common.ts";
import { TrackDto } from "../tracks/catalogue/schema.ts";

/** The longest queue kept: more than any listening session, small enough for one row. */
export const PLAY_QUEUE_MAX = 1000;

export const PlayQueueInput = z
  .object({
    trackIds: z
      .array(z.uuid())
      .max(PLAY_QUEUE_MAX, `at most ${PLAY_QUEUE_MAX} tracks`)
      .openapi({ description: "The queue in play order; a track may appear more than once." }),
    current: z.uuid().nullable().default(null).openapi({
      description: "The track playing (one of `trackIds`), or null.",
    }),
    position: z
      .number()
      .min(0, "must not be negative")
      .max(86_400, "at most 86400 seconds")
      .default(0)
      .openapi({ description: "Seconds into the current track.", example: 42.5 }),
    client: z
      .string()
      .trim()
      .max(64, "at most 64 characters")
      .default("")
      .openapi({ description: "Which player saved it (shown as `changedBy`).", example: "web" }),
  })
  .refine((q) => q.current === null || q.trackIds.includes(q.current), {
    path: ["current"],
    message: "must be one of trackIds",
  })
  .openapi("PlayQueueInput");

export const PlayQueueDto = z
  .object({
    tracks: z.array(TrackDto).openapi({
      description:
        "The saved queue in order, READY tracks only: a track deleted or being converted again since is left out.",
    }),
    current: z.uuid().nullable().openapi({
      description:
        "The track that was playing; null when none was, or it is not in `tracks` any more.",
    }),
    position: z.number().min(0).openapi({ description: "Seconds into `current`.", example: 42.5 }),
    changedAt: Timestamp.nullable().openapi({ description: "When it was saved; null: never." }),
    changedBy: z.string().openapi({ description: "The `client` that saved it.", example: "web" }),
  })
  .openapi("PlayQueue");

export type PlayQueueIn = z.infer<typeof PlayQueueInput>;
export type PlayQueueView = z.infer<typeof PlayQueueDto>;
