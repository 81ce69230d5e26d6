import { z } from "@hono/zod-openapi";
import { MediaPath, Timestamp, uuidParam } from "../../validation/common.ts";
import { DisplayNameOut } from "../auth/schema.ts";
import { Visibility, type VisibilityValue } from "../sharing/schema.ts";

export const TITLE_MAX = 100;
export const DESCRIPTION_MAX = 1000;
export const TRACK_IDS_MAX = 100;
/** Tracks one playlist may hold: the full list is in every answer, so it must stay bounded. */
export const PLAYLIST_TRACKS_MAX = 10_000;
/** Tracks in the brief list of GET /playlists/me. */
export const BRIEF_TRACKS = 4;

const Id = z.uuid().openapi({ example: "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192" });

const Title = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(TITLE_MAX, `at most ${TITLE_MAX} characters`)
  .openapi({ example: "Late night drive" });
const Description = z
  .string()
  .trim()
  .max(DESCRIPTION_MAX, `at most ${DESCRIPTION_MAX} characters`)
  .openapi({ example: "Slow synths for empty roads." });

/** `isPublic` and `visibility` together must agree (ADR 0025: isPublic ⇔ visibility = public). */
const agreeing = <
  T extends { isPublic?: boolean | undefined; visibility?: VisibilityValue | undefined },
>(
  fields: T,
) =>
  fields.isPublic === undefined ||
  fields.visibility === undefined ||
  fields.isPublic === (fields.visibility === "public");
const DISAGREE = {
  message: "isPublic is true exactly when visibility is public",
  path: ["visibility"],
};

export const CreatePlaylistBody = z
  .object({
    title: Title,
    description: Description.default(""),
    isPublic: z.boolean().optional().openapi({
      description:
        "Default false (private). The same as `visibility: public` (true) or not public.",
    }),
    visibility: Visibility.optional(),
  })
  .refine(agreeing, DISAGREE)
  .openapi("CreatePlaylistRequest");

export const UpdatePlaylistJson = z
  .object({
    title: Title.optional(),
    description: Description.optional(),
    isPublic: z.boolean().optional(),
    visibility: Visibility.optional(),
  })
  .refine(agreeing, DISAGREE)
  .openapi("UpdatePlaylistRequest", { description: "At least one field." });

export const UpdatePlaylistForm = z
  .object({
    title: Title.optional(),
    description: Description.optional(),
    isPublic: z
      .enum(["true", "false"], "must be true or false")
      .transform((value) => value === "true")
      .optional(),
    visibility: Visibility.optional(),
    // Checked by readImage (a file, 1 byte–5 MB, PNG/JPEG/WebP by its bytes).
    cover: z.any().optional().openapi({ type: "string", format: "binary" }),
  })
  .refine(agreeing, DISAGREE)
  .openapi("UpdatePlaylistForm", {
    description:
      "At least one field. `isPublic` is the text `true` or `false`; `cover` is a PNG, JPEG or WebP image of at most 5 MB.",
  });

export const AddTracksBody = z
  .object({
    trackIds: z
      .array(z.uuid())
      .min(1, "at least 1 track id")
      .max(TRACK_IDS_MAX, `at most ${TRACK_IDS_MAX} track ids`)
      .transform((ids) => [...new Set(ids)])
      .openapi({ example: ["0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192"] }),
  })
  .openapi("AddPlaylistTracksRequest");

/** The playlist's tracks in a new order: each of its (listed) tracks exactly once. */
export const ReorderTracksBody = z
  .object({
    trackIds: z
      // Lower case, so that one id in two cases is caught as a repeat.
      .array(z.uuid().toLowerCase())
      .min(1, "at least 1 track id")
      .max(PLAYLIST_TRACKS_MAX, `at most ${PLAYLIST_TRACKS_MAX} track ids`)
      .superRefine((ids, ctx) => {
        const first = new Map<string, number>();
        ids.forEach((id, index) => {
          const seen = first.get(id);
          if (seen === undefined) first.set(id, index);
          else ctx.addIssue({ code: "custom", path: [index], message: `repeats item ${seen}` });
        });
      })
      .openapi({ uniqueItems: true, example: ["0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192"] }),
  })
  .openapi("ReorderPlaylistTracksRequest");

export const TrackParams = z.object({ id: uuidParam("id"), trackId: uuidParam("trackId") });

const Counts = z.object({ tracks: z.number().int(), likes: z.number().int() });

export const PlaylistTrackDto = z
  .object({
    id: Id,
    title: z.string(),
    cover: MediaPath,
    duration: z.number().nullable().openapi({ description: "Seconds.", example: 215.5 }),
    artistId: Id,
    artist: z.object({
      id: Id,
      username: z.string(),
      displayName: DisplayNameOut,
      avatar: MediaPath,
    }),
    addedAt: Timestamp,
  })
  .openapi("PlaylistTrack");

const playlistFields = {
  id: Id,
  title: z.string(),
  description: z.string(),
  cover: MediaPath,
  isPublic: z
    .boolean()
    .openapi({ description: "The spec's flag: true exactly when `visibility` is `public`." }),
  visibility: Visibility,
  userId: Id.openapi({ description: "The owner." }),
  owner: z.object({ id: Id, displayName: DisplayNameOut }).openapi({
    description:
      "The owner as others may see them: their display name, or null when they set none (then show no name: a listener's username may come from their email address, so it is never shown with a playlist).",
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const PlaylistDto = z
  .object({ ...playlistFields, tracks: z.array(PlaylistTrackDto), _count: Counts })
  .openapi("Playlist", {
    description:
      "A playlist with its full track list in playlist order. Only tracks whose conversion is READY are listed and counted.",
  });

export const PlaylistWithViewerDto = PlaylistDto.extend({
  viewer: z
    .object({
      liked: z.boolean().openapi({ description: "Whether the caller likes the playlist." }),
    })
    .optional()
    .openapi({
      description:
        "The caller's own relation to the playlist. Present only when the caller is a signed-in user (listener); absent for anonymous callers and for artists.",
    }),
}).openapi("PlaylistWithViewer", {
  description:
    "A playlist with its full track list in playlist order (only READY tracks are listed and counted), with the signed-in listener's own relation to it (`viewer`).",
});

export const PlaylistSummaryDto = z
  .object({ ...playlistFields, _count: Counts })
  .openapi("PlaylistSummary");

export const LikedPlaylistDto = z
  .object({
    ...playlistFields,
    likedAt: Timestamp.openapi({ description: "When the caller liked the playlist." }),
    _count: Counts,
  })
  .openapi("LikedPlaylist");

const BriefTrackDto = z.object({ id: Id, title: z.string(), cover: MediaPath });

export const OwnPlaylistDto = z
  .object({
    id: Id,
    title: z.string(),
    cover: MediaPath,
    isPublic: z.boolean(),
    visibility: Visibility,
    updatedAt: Timestamp,
    tracks: z.array(BriefTrackDto).openapi({
      description: `The first ${BRIEF_TRACKS} READY tracks in playlist order (for a mosaic cover).`,
    }),
    _count: z.object({ tracks: z.number().int() }),
  })
  .openapi("OwnPlaylist");

export const LikeStateDto = z
  .object({ liked: z.boolean(), _count: z.object({ likes: z.number().int() }) })
  .openapi("PlaylistLikeState");

export type PlaylistOut = z.infer<typeof PlaylistDto>;
export type PlaylistWithViewerOut = z.infer<typeof PlaylistWithViewerDto>;
export type PlaylistSummaryOut = z.infer<typeof PlaylistSummaryDto>;
export type OwnPlaylistOut = z.infer<typeof OwnPlaylistDto>;
export type LikedPlaylistOut = z.infer<typeof LikedPlaylistDto>;
export type LikeStateOut = z.infer<typeof LikeStateDto>;
export type PlaylistPatch = {
  title?: string;
  description?: string;
  isPublic?: boolean | undefined;
  visibility?: VisibilityValue | undefined;
};
