import { z } from "@hono/zod-openapi";
import { MediaPath } from "../../validation/common.ts";
import { DisplayNameOut } from "../auth/schema.ts";

export const SEARCH_TYPES = ["tracks", "artists", "albums", "playlists"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const MAX_QUERY_LENGTH = 200;
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;

// Code points, not UTF-16 units: an emoji is one character, as JSON Schema's maxLength counts.
const codePoints = (text: string) => [...text].length;

const Query = z
  .string()
  .trim()
  .min(1, "Must not be empty or only spaces.")
  .refine((text) => codePoints(text) <= MAX_QUERY_LENGTH, {
    message: `At most ${MAX_QUERY_LENGTH} characters.`,
  })
  // Postgres text cannot hold NUL: refused here rather than failing in the driver.
  .refine((text) => !text.includes("\u0000"), { message: "Must not contain NUL characters." })
  .openapi({
    param: { name: "q", in: "query", required: true },
    minLength: 1,
    maxLength: MAX_QUERY_LENGTH,
    example: "love",
    description: `The search text: 1–${MAX_QUERY_LENGTH} characters (Unicode code points) after trimming, no NUL. Never an error otherwise: the substring match takes every character literally (\`%\`, \`_\`, backslash, quotes); the full-text match reads web-search syntax (quoted phrases, \`or\`, a leading \`-\`).`,
  });

/** One `types` value: a type, a repeated parameter, or a comma-separated list of types. */
const TypeList = (name: string) =>
  z
    .preprocess(
      (value) => (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(",")),
      z.array(z.enum(SEARCH_TYPES)),
    )
    .optional()
    .openapi({
      param: { name, in: "query", style: "form", explode: true },
      type: "array",
      items: { type: "string", enum: [...SEARCH_TYPES] },
      example: ["tracks", "artists"],
      description:
        "Types to search, repeatable (`types[]=tracks&types[]=artists`); `types` without brackets and comma-separated values (`types=tracks,artists`) are accepted too, and both names may be mixed. Default: every type. Values are case-sensitive; an unknown or empty value is a 400; duplicates count once.",
    });

export const SearchQuery = z.object({
  q: Query,
  "types[]": TypeList("types[]"),
  types: TypeList("types"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_LIMIT)
    .default(DEFAULT_SEARCH_LIMIT)
    .openapi({
      param: { name: "limit", in: "query" },
      example: DEFAULT_SEARCH_LIMIT,
      description: `Maximum results per type, 1–${MAX_SEARCH_LIMIT} (default ${DEFAULT_SEARCH_LIMIT}); anything else is a 400.`,
    }),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export interface SearchInput {
  q: string;
  types: SearchType[];
  limit: number;
}

/** The validated query as the service wants it: both spellings of `types` merged, in canonical order. */
export function searchInput(query: SearchQuery): SearchInput {
  const asked = new Set([...(query["types[]"] ?? []), ...(query.types ?? [])]);
  const types = asked.size === 0 ? [...SEARCH_TYPES] : SEARCH_TYPES.filter((t) => asked.has(t));
  return { q: query.q, types, limit: query.limit };
}

const Uuid = z.uuid().openapi({ example: "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192" });
const Rank = z.number().openapi({
  description:
    "Relevance, higher first: 3 exact match; 2–2.9 full-text match; 1–1.9 prefix match; 0–0.9 other substring or typo-tolerant match. Only comparable within one response.",
  example: 2.0547,
});
const Title = z.string().openapi({ example: "Love Again" });

const ResultArtist = z
  .object({
    id: Uuid,
    username: z.string().openapi({ example: "nightdrive" }),
    displayName: DisplayNameOut,
  })
  .openapi("SearchResultArtist", { description: "Who made it: show `displayName ?? username`." });

export const TrackResultDto = z
  .object({
    id: Uuid,
    title: Title,
    cover: MediaPath,
    artistId: Uuid,
    artist: ResultArtist,
    rank: Rank,
  })
  .openapi("TrackSearchResult");

export const ArtistResultDto = z
  .object({
    id: Uuid,
    username: z.string().openapi({ example: "nightdrive" }),
    displayName: DisplayNameOut,
    avatar: MediaPath,
    bio: z.string().openapi({ example: "Synthwave from Lisbon." }),
    rank: Rank,
  })
  .openapi("ArtistSearchResult");

export const AlbumResultDto = z
  .object({
    id: Uuid,
    title: Title,
    cover: MediaPath,
    artistId: Uuid,
    artist: ResultArtist,
    releasedAt: z.iso
      .date()
      .nullable()
      .openapi({ description: "Calendar date, or null when unknown.", example: "2024-05-17" }),
    rank: Rank,
  })
  .openapi("AlbumSearchResult");

export const PlaylistResultDto = z
  .object({
    id: Uuid,
    title: Title,
    description: z.string().openapi({ example: "Songs for the night bus." }),
    cover: MediaPath,
    userId: Uuid,
    owner: z
      .object({ id: Uuid, displayName: DisplayNameOut })
      .openapi({ description: "The owner by display name only (null: show no name)." }),
    rank: Rank,
  })
  .openapi("PlaylistSearchResult");

export const SearchResultsDto = z
  .object({
    tracks: z.array(TrackResultDto).optional(),
    artists: z.array(ArtistResultDto).optional(),
    albums: z.array(AlbumResultDto).optional(),
    playlists: z.array(PlaylistResultDto).optional(),
  })
  .openapi("SearchResults", {
    description:
      "One key per requested type and no other, each an array ordered by `rank`, highest first (possibly empty).",
  });

export type TrackResult = z.infer<typeof TrackResultDto>;
export type ArtistResult = z.infer<typeof ArtistResultDto>;
export type AlbumResult = z.infer<typeof AlbumResultDto>;
export type PlaylistResult = z.infer<typeof PlaylistResultDto>;
export type SearchResults = z.infer<typeof SearchResultsDto>;
