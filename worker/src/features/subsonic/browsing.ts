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
  SINGLE_PREFIX,
  type SongRow,
  songQuery,
} from "./queries.ts";

type Rows<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type ArtistRow = Rows<typeof artistsQuery>[number];

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
    reads: (deps, id) => [
      albumSongsQuery(deps.db, id),
      ...(id.startsWith(SINGLE_PREFIX) ? [] : [albumQuery(deps.db, id)]),
    ],
    answer: ({ args: id, results }) => {
      const songs = results[0] as SongRow[];
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
          song: songs.map(songNode),
        },
      };
    },
  }),
  getSong: method({
    args: (params) => uuidArg(params, "id", "Song"),
    reads: (deps, id) => [songQuery(deps.db, id)],
    answer: ({ results }) => {
      const [song] = results[0] as SongRow[];
      if (!song) throw notFound("Song");
      return { song: songNode(song) };
    },
  }),
};
