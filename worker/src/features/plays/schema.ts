import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../validation/common.ts";

export const PlayReportInput = z
  .object({
    trackId: z.uuid().openapi({ example: "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192" }),
    key: z.string().max(64, "at most 64 characters").optional().openapi({
      description:
        "The share key of an unlisted track's link (its `?key=…`); without it only public tracks are heard.",
      example: "3f1c0e9a7b2d4c6e8f0a1b2c3d4e5f60",
    }),
    exp: z.string().max(16, "at most 16 characters").optional().openapi({
      description:
        "With `sig`: the signature of an unlisted track's signed stream URLs (`exp` and `sig` of `stream.query`, ADR 0026), for a player that holds those rather than the track's key (a track read with its album's key).",
      example: "1795000000",
    }),
    sig: z.string().max(128, "at most 128 characters").optional(),
  })
  .strict()
  .openapi("PlayReportInput");

export const PlayReportDto = z
  .object({
    trackId: z.uuid(),
    reportedAt: Timestamp,
  })
  .openapi("PlayReport");

export type PlayReportInput = z.infer<typeof PlayReportInput>;
