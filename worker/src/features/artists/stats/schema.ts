import { z } from "@hono/zod-openapi";

/** The longest range one answer covers, in days. */
export const STATS_MAX_DAYS = 366;

const Day = z.iso.date().openapi({ example: "2026-11-27" });

export const StatsQuery = z
  .object({
    from: Day.optional().openapi({
      param: { name: "from", in: "query" },
      description: "First day (UTC, inclusive); default 29 days before `to`.",
    }),
    to: Day.optional().openapi({
      param: { name: "to", in: "query" },
      description: "Last day (UTC, inclusive); default today.",
    }),
    trackId: z
      .uuid()
      .optional()
      .openapi({
        param: { name: "trackId", in: "query" },
        description: "Only this track of the caller's (another's, or an unknown id, is a 404).",
      }),
  })
  .openapi("StatsQuery");

const StatsDayDto = z
  .object({
    day: Day,
    plays: z.number().int().min(0),
    listeners: z.number().int().min(0).openapi({
      description:
        "Distinct listeners that day (a signed-in listener, or a network for listeners who are not): of the artist's tracks as a whole, or of the one track asked for.",
    }),
    likes: z.number().int().min(0).openapi({
      description: "Likes of the tracks made that day (and not taken back since).",
    }),
    newFollowers: z.number().int().min(0).openapi({
      description: "Followers of the artist who began that day (and still follow).",
    }),
  })
  .openapi("StatsDay");

export const StatsDto = z
  .object({
    from: Day,
    to: Day,
    trackId: z.uuid().nullable(),
    days: z.array(StatsDayDto).openapi({ description: "Every day of the range, oldest first." }),
    topTracks: z
      .array(
        z.object({
          id: z.uuid(),
          title: z.string(),
          plays: z.number().int().min(0),
          listeners: z.number().int().min(0).openapi({
            description: "The sum of the track's distinct listeners of each day.",
          }),
        }),
      )
      .openapi({ description: "The 10 most played tracks in the range, most played first." }),
    countries: z
      .array(
        z.object({
          country: z.string().openapi({
            example: "FR",
            description:
              "ISO 3166-1 alpha-2, as Cloudflare's edge saw the request (never derived from the address); `XX` unknown, `T1` Tor.",
          }),
          plays: z.number().int().min(0),
        }),
      )
      .openapi({ description: "Plays by the listener's country, most first (at most 50)." }),
  })
  .openapi("ArtistStats");

export type StatsQuery = z.infer<typeof StatsQuery>;
export type Stats = z.infer<typeof StatsDto>;
