import { method, noArgs } from "./method.ts";
import { artistNode, songNode } from "./model.ts";
import { type SongRow, starredArtistsQuery, starredSongsQuery } from "./queries.ts";

type Starred<T> = T & { starred: Date };

/**
 * Lists of the protocol. `getStarred2`: a listener's liked songs (READY) and artists, the newest
 * first, up to STARRED_MAX of each (no paging in the protocol); albums have no like yet. An
 * artist account stars nothing: empty.
 */
export const listMethods = {
  getStarred2: method({
    args: noArgs,
    reads: (deps, _args, userId) => [
      starredSongsQuery(deps.db, userId),
      starredArtistsQuery(deps.db, userId),
    ],
    answer: ({ caller, results }) => {
      // The reads named the claimed listener: they are the caller's only if it is one.
      const mine = caller.kind === "user";
      const songs = mine ? (results[0] as Starred<SongRow>[]) : [];
      const artists = mine
        ? (results[1] as Starred<{ id: string; name: string; avatar: string | null }>[])
        : [];
      return {
        starred2: {
          artist: artists.map((row) => ({
            ...artistNode(row),
            starred: row.starred.toISOString(),
          })),
          album: [],
          song: songs.map((row) => ({ ...songNode(row), starred: row.starred.toISOString() })),
        },
      };
    },
  }),
  // "Now playing" is not kept yet (scrobble with submission=false keeps nothing).
  getNowPlaying: method({ args: noArgs, answer: () => ({ nowPlaying: {} }) }),
};

/**
 * Answers that stay empty until our model holds what they list (issue 30 lets the rest of the
 * protocol answer an empty list): genres and lyrics (top and similar songs: similar.ts).
 */
export const emptyMethods = {
  getGenres: method({ args: noArgs, answer: () => ({ genres: {} }) }),
  getLyricsBySongId: method({ args: noArgs, answer: () => ({ lyricsList: {} }) }),
};
