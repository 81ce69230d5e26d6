import { z } from "@hono/zod-openapi";
import { MediaPath, PageQuery, Timestamp } from "../../validation/common.ts";
import { Visibility } from "../sharing/schema.ts";
import {
  CoverFile,
  SharedTrackDto,
  Title,
  TrackArtistDto,
  TrackDto,
} from "../tracks/catalogue/schema.ts";

const Uuid = z.uuid().openapi({ example: "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192" });

/** A real calendar date of years 0001–9999: "2024-02-30" is refused, not rolled over. */
export function isCalendarDate(value: string): boolean {
  const [year = 0, month = 0, day = 0] = value.split("-").map(Number);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

export const ReleaseDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "a date as YYYY-MM-DD", abort: true })
  .refine(isCalendarDate, "not a real calendar date")
  .openapi({
    format: "date",
    example: "2024-05-17",
    description:
      "The release day, YYYY-MM-DD (a calendar date, no time zone). May lie in the future.",
  });

/** What the artist says about the album: at most 2000 characters ("" for none). */
export const AlbumDescription = z
  .string()
  .trim()
  .max(2000, "at most 2000 characters")
  .openapi({ example: "Recorded in one night by the harbour." });

export const AlbumCreateBody = z
  .object({
    title: Title,
    releasedAt: ReleaseDate.nullable().optional(),
    description: AlbumDescription.optional(),
  })
  .openapi("AlbumCreate");

export const AlbumUpdateJson = z
  .object({
    title: Title.optional(),
    visibility: Visibility.optional(),
    releasedAt: ReleaseDate.nullable().optional(),
    description: AlbumDescription.optional(),
  })
  .openapi("AlbumUpdate");

/** The album's tracks in their new order: every one of them, each once. */
export const AlbumTrackOrder = z
  .object({
    trackIds: z
      .array(z.uuid())
      .min(1, "must name the album's tracks")
      .max(500, "at most 500 tracks")
      .refine((ids) => new Set(ids).size === ids.length, "must not name a track twice"),
  })
  .openapi("AlbumTrackOrder");

export const AlbumUpdateForm = z
  .object({
    title: Title.optional(),
    visibility: Visibility.optional(),
    description: AlbumDescription.optional(),
    // A form field cannot be null: an empty value stands for null here.
    releasedAt: z
      .union([z.literal("").transform(() => null), ReleaseDate])
      .optional()
      .openapi({
        type: "string",
        description: "YYYY-MM-DD; an empty value removes the release date.",
      }),
    cover: CoverFile,
  })
  .openapi("AlbumUpdateForm");

export const AlbumListQuery = PageQuery.extend({
  artistId: z
    .uuid()
    .optional()
    .openapi({
      param: { name: "artistId", in: "query" },
      description: "Only this artist's albums.",
      example: "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192",
    }),
});

export const AlbumSummaryDto = z
  .object({
    id: Uuid,
    title: z.string().openapi({ example: "Night Drive" }),
    cover: MediaPath,
    description: z.string().openapi({ example: "Recorded in one night by the harbour." }),
    releasedAt: z.string().nullable().openapi({ format: "date", example: "2024-05-17" }),
    artistId: Uuid,
    artist: TrackArtistDto,
    visibility: Visibility,
    createdAt: Timestamp,
  })
  .openapi("AlbumSummary", { description: "An album in a list: without its tracks." });

export const AlbumDto = AlbumSummaryDto.extend({
  tracks: z.union([SharedTrackDto, TrackDto]).array().openapi({
    description:
      "Its READY tracks the reader may see, in album order: the artist's order (`albumPosition`), else the order they were added. Everyone sees its public tracks; whoever read the album with its key also its unlisted ones, each as a `SharedTrack` with signed URLs of its files (ADR 0026); the owner all of them (and streams them with the session).",
  }),
}).openapi("Album");

export type AlbumSummaryView = z.infer<typeof AlbumSummaryDto>;
export type AlbumView = z.infer<typeof AlbumDto>;
