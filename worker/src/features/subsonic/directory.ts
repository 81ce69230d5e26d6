import { isUuid, required } from "./args.ts";
import { notFound } from "./errors.ts";
import { method } from "./method.ts";
import { albumCoverArt, songNode } from "./model.ts";
import {
  albumSongsQuery,
  artistAlbumsQuery,
  artistQuery,
  SINGLE_PREFIX,
  type SongRow,
} from "./queries.ts";

type Rows<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

/**
 * Folder browsing (`getMusicDirectory`), for apps that walk folders: an artist is a directory of
 * its albums, an album (or a single's album) a directory of its songs. The id is read as both in
 * one batch (ids are UUIDs: at most one matches).
 */
export const directoryMethods = {
  getMusicDirectory: method({
    args: (params) => {
      const id = required(params, "id").toLowerCase();
      const uuid = id.startsWith(SINGLE_PREFIX) ? id.slice(SINGLE_PREFIX.length) : id;
      if (!isUuid(uuid)) throw notFound("Directory");
      return id;
    },
    reads: (deps, id) => [
      albumSongsQuery(deps.db, id),
      ...(id.startsWith(SINGLE_PREFIX)
        ? []
        : [artistQuery(deps.db, id), artistAlbumsQuery(deps.db, id)]),
    ],
    answer: ({ args: id, results }) => {
      const songs = results[0] as SongRow[];
      const [first] = songs;
      if (first) {
        return {
          directory: {
            id,
            name: first.albumTitle,
            parent: first.artistId,
            child: songs.map(songNode),
          },
        };
      }
      const [artist] = (results[1] ?? []) as Rows<typeof artistQuery>;
      const albums = (results[2] ?? []) as Rows<typeof artistAlbumsQuery>;
      if (!artist || albums.length === 0) throw notFound("Directory");
      return {
        directory: {
          id: artist.id,
          name: artist.name,
          child: albums.map((album) => ({
            id: album.id,
            parent: artist.id,
            isDir: true,
            title: album.name,
            album: album.name,
            artist: artist.name,
            artistId: artist.id,
            coverArt: albumCoverArt(album.id, album.cover !== null),
            created: new Date(album.created).toISOString(),
          })),
        },
      };
    },
  }),
};
