import { albumLikes } from "@edge-music/db";
import { and, eq, type SQL } from "drizzle-orm";
import { isUuid, required, uuidArg } from "./args.ts";
import { notFound } from "./errors.ts";
import { method, noArgs } from "./method.ts";
import { albumCoverArt, albumNode, artistNode, indexed, songNode } from "./model.ts";
import {
  albumQuery,
  albumSongsQuery,
  artistAlbumsQuery,
  artistQuery,
  artistsQuery,
  ownMarks,
  SINGLE_PREFIX,
  type SongRow,
  songQuery,
} from "./queries.ts";

type Rows<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type ArtistRow = Rows<typeof artistsQuery>[number];

/** When the claimed listener starred an album (see CredentialCheck.claimedUserId). */
const albumStarQuery = (db: Parameters<typeof albumQuery>[0], albumId: string, userId: SQL) =>
  db
    .select({ at: albumLikes.createdAt })
    .from(albumLikes)
    .where(and(eq(albumLikes.albumId, albumId), eq(albumLikes.userId, userId)));

export const browsingMethods = {
  getArtists: method({
    args: noArgs,
    reads: (deps) => [artistsQuery(deps.db)],
    answer: ({ results }) => ({
      artists: { ignoredArticles: "", index: indexed(results[0] as ArtistRow[], artistNode) },
    }),
  }),
  getIndexes: method({
    args: noArgs,
    reads: (deps) => [artistsQuery(deps.db)],
    answer: ({ results, deps }) => ({
      indexes: {
        lastModified: deps.now.getTime(),
        ignoredArticles: "",
        index: indexed(results[0] as ArtistRow[], (row) => ({ id: row.id, name: row.name })),
      },
    }),
  }),
  getArtist: method({
    args: (params) => uuidArg(params, "id", "Artist"),
    reads: (deps, id) => [artistQuery(deps.db, id), artistAlbumsQuery(deps.db, id)],
    answer: ({ results }) => {
      const [artist] = results[0] as Rows<typeof artistQuery>;
      const albums = results[1] as Rows<typeof artistAlbumsQuery>;
      // An artist with nothing playable is not in the catalogue.
      if (!artist || albums.length === 0) throw notFound("Artist");
      return {
        artist: {
          ...artistNode({ ...artist, albumCount: albums.length }),
          album: albums.map((row) => albumNode(row, artist)),
        },
      };
    },
  }),
  getAlbum: method({
    args: (params) => {
      const id = required(params, "id");
      const uuid = id.startsWith(SINGLE_PREFIX) ? id.slice(SINGLE_PREFIX.length) : id;
      if (!isUuid(uuid)) throw notFound("Album");
      return id.toLowerCase();
    },
    reads: (deps, id, userId) => [
      albumSongsQuery(deps.db, id, userId),
      ...(id.startsWith(SINGLE_PREFIX)
        ? []
        : [albumQuery(deps.db, id), albumStarQuery(deps.db, id, userId)]),
    ],
    answer: ({ args: id, caller, results }) => {
      // The marks and the star were read for the claimed listener: the caller's only if one.
      const mine = caller.kind === "user";
      const songs = ownMarks(results[0] as SongRow[], mine);
      const [star] = mine ? ((results[2] ?? []) as Array<{ at: Date }>) : [];
      const [first] = songs;
      if (!first) throw notFound("Album");
      const [album] = (results[1] ?? []) as Rows<typeof albumQuery>;
      const single = id.startsWith(SINGLE_PREFIX);
      const cover = single ? first.cover : first.albumCover;
      return {
        album: {
          ...albumNode(
            {
              id,
              name: first.albumTitle,
              cover,
              songCount: songs.length,
              duration: songs.reduce((sum, song) => sum + (song.duration ?? 0), 0),
              created: album?.createdAt ?? first.createdAt,
              releasedAt: album?.releasedAt ?? null,
            },
            { id: first.artistId, name: first.artistName },
          ),
          coverArt: albumCoverArt(id, cover !== null),
          starred: star ? new Date(star.at).toISOString() : undefined,
          song: songs.map(songNode),
        },
      };
    },
  }),
  getSong: method({
    args: (params) => uuidArg(params, "id", "Song"),
    reads: (deps, id, userId) => [songQuery(deps.db, id, userId)],
    answer: ({ caller, results }) => {
      const [song] = ownMarks(results[0] as SongRow[], caller.kind === "user");
      if (!song) throw notFound("Song");
      return { song: songNode(song) };
    },
  }),
};
