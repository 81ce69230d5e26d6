import { albums, artists } from "@edge-music/db";
import { and, eq } from "drizzle-orm";
import { uuidArg } from "./args.ts";
import { notFound } from "./errors.ts";
import { method, noArgs } from "./method.ts";
import { publicAlbum } from "./queries.ts";

/**
 * What we know about an artist or an album beyond the catalogue: the artist's bio and picture, the
 * album's notes and cover, as absolute URLs under the service's address (apps fetch them
 * themselves). No similar artists yet: an empty list.
 */
const imageUrls = (base: string, path: string | null) => {
  if (!path) return {};
  const url = new URL(path, base).toString();
  return { smallImageUrl: url, mediumImageUrl: url, largeImageUrl: url };
};

export const infoMethods = {
  getArtistInfo2: method({
    args: (params) => uuidArg(params, "id", "Artist"),
    reads: (deps, id) => [
      deps.db
        .select({ bio: artists.bio, avatar: artists.avatar })
        .from(artists)
        .where(eq(artists.id, id)),
    ],
    answer: ({ deps, results }) => {
      const [row] = results[0] as Array<{ bio: string; avatar: string | null }>;
      if (!row) throw notFound("Artist");
      return {
        artistInfo2: {
          biography: row.bio || undefined,
          ...imageUrls(deps.env.PUBLIC_BASE_URL, row.avatar),
          similarArtist: [],
        },
      };
    },
  }),
  getAlbumInfo2: method({
    args: (params) => uuidArg(params, "id", "Album"),
    reads: (deps, id) => [
      deps.db
        .select({ notes: albums.description, cover: albums.cover })
        .from(albums)
        .where(and(eq(albums.id, id), publicAlbum)),
    ],
    answer: ({ deps, results }) => {
      const [row] = results[0] as Array<{ notes: string; cover: string | null }>;
      if (!row) throw notFound("Album");
      return {
        albumInfo: {
          notes: row.notes || undefined,
          ...imageUrls(deps.env.PUBLIC_BASE_URL, row.cover),
        },
      };
    },
  }),
  // OpenSubsonic apiKeyAuthentication: whose key is this?
  tokenInfo: method({
    args: noArgs,
    answer: ({ caller }) => ({ tokenInfo: { username: caller.username } }),
  }),
};
