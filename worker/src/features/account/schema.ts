import { z } from "@hono/zod-openapi";
import { DisplayName, SessionDto } from "../auth/schema.ts";

/** PATCH /users/me: what a listener may change of their public face. */
export const UserProfileUpdate = z
  .object({ displayName: DisplayName.nullable() })
  .openapi("UserProfileUpdate");

// What a person gets when exporting their data (GET /users/me/export, GET /artists/me/export).

const At = z.iso.datetime();
/** An app password as exported: its name and times, never its secret. */
const AppPasswordExport = z.object({
  id: z.uuid(),
  name: z.string(),
  createdAt: At,
  lastUsedAt: At.nullable(),
});

export const UserExport = z
  .object({
    exportedAt: At,
    account: z
      .object({
        id: z.uuid(),
        username: z.string(),
        displayName: z.string().nullable(),
        email: z.string(),
        emailVerifiedAt: At.nullable(),
        createdAt: At,
        updatedAt: At,
        twoFactorEnabled: z.boolean(),
      })
      .nullable(),
    sessions: z.array(SessionDto),
    history: z.array(z.object({ trackId: z.uuid(), listenedAt: At })),
    playlists: z.array(
      z.object({
        id: z.uuid(),
        title: z.string(),
        description: z.string(),
        isPublic: z.boolean(),
        cover: z.string().nullable(),
        tracks: z.array(z.object({ trackId: z.uuid(), position: z.number().int(), addedAt: At })),
      }),
    ),
    likedPlaylists: z.array(z.uuid()),
    likedArtists: z.array(z.object({ artistId: z.uuid(), at: At })),
    likedTracks: z.array(z.object({ trackId: z.uuid(), at: At })),
    playQueue: z
      .object({
        trackIds: z.array(z.uuid()),
        current: z.uuid().nullable(),
        position: z.number(),
        changedAt: At,
        changedBy: z.string(),
      })
      .nullable(),
    follows: z.array(z.object({ artistId: z.uuid(), at: At })),
    likedAlbums: z.array(z.object({ albumId: z.uuid(), at: At })),
    ratings: z.array(
      z.object({ trackId: z.uuid(), rating: z.number().int().min(1).max(5), at: At }),
    ),
    nowPlaying: z.object({ trackId: z.uuid(), client: z.string(), startedAt: At }).nullable(),
    appPasswords: z.array(AppPasswordExport),
  })
  .openapi("UserExport");

export const ArtistExport = z
  .object({
    exportedAt: At,
    account: z
      .object({
        id: z.uuid(),
        username: z.string(),
        displayName: z.string().nullable(),
        email: z.string(),
        emailVerifiedAt: At.nullable(),
        bio: z.string(),
        avatar: z.string().nullable(),
        backgroundImage: z.string().nullable(),
        createdAt: At,
        twoFactorEnabled: z.boolean(),
      })
      .nullable(),
    sessions: z.array(SessionDto),
    tracks: z.array(
      z
        .object({ id: z.uuid(), title: z.string(), processingStatus: z.string() })
        .catchall(z.unknown()),
    ),
    albums: z.array(z.object({ id: z.uuid(), title: z.string() }).catchall(z.unknown())),
    followers: z.number().int().min(0),
    likes: z.number().int().min(0),
    appPasswords: z.array(AppPasswordExport),
  })
  .openapi("ArtistExport");
