import { albumLikes, albums, artists, type HttpDatabase } from "@edge-music/db";
import { and, desc, eq, type SQL } from "drizzle-orm";
import { required } from "./args.ts";
import { ALBUM_COLUMNS, listedAlbum } from "./catalogue-pages.ts";
import { method, noArgs } from "./method.ts";
import { type AlbumRow, albumNode, artistNode, songNode } from "./model.ts";
import { type SongRow, STARRED_MAX, starredArtistsQuery, starredSongsQuery } from "./queries.ts";

/** A listener's starred albums (album_likes) that are listed, the newest star first. */
function starredAlbumsQuery(db: HttpDatabase, userId: SQL) {
  return db
    .select({ ...ALBUM_COLUMNS, starred: albumLikes.createdAt })
    .from(albumLikes)
    .innerJoin(albums, eq(albums.id, albumLikes.albumId))
    .innerJoin(artists, eq(artists.id, albums.artistId))
    .where(and(eq(albumLikes.userId, userId), listedAlbum))
    .orderBy(desc(albumLikes.createdAt), desc(albumLikes.albumId))
    .limit(STARRED_MAX);
}

type Starred<T> = T & { starred: Date };
type StarredAlbum = AlbumRow & { artistId: string; artistName: string };

/**
 * Lists of the protocol. `getStarred2`: a listener's liked songs, albums and artists (listed
 * ones), the newest first, up to STARRED_MAX of each (no paging in the protocol). An artist
 * account stars nothing: empty.
 */
export const listMethods = {
  getStarred2: method({
    args: noArgs,
    reads: (deps, _args, userId) => [
      starredSongsQuery(deps.db, userId),
      starredArtistsQuery(deps.db, userId),
      starredAlbumsQuery(deps.db, userId),
    ],
    answer: ({ caller, results }) => {
      // The reads named the claimed listener: they are the caller's only if it is one.
      const mine = caller.kind === "user";
      const songs = mine ? (results[0] as Starred<SongRow>[]) : [];
      const artists = mine
        ? (results[1] as Starred<{
            id: string;
            name: string;
            avatar: string | null;
            albumCount: number;
          }>[])
        : [];
      return {
        starred2: {
          artist: artists.map((row) => ({
            ...artistNode(row),
            starred: row.starred.toISOString(),
          })),
          album: (mine ? (results[2] as Starred<StarredAlbum>[]) : []).map((row) => ({
            ...albumNode(row, { id: row.artistId, name: row.artistName }),
            starred: row.starred.toISOString(),
          })),
          song: songs.map((row) => ({ ...songNode(row), starred: row.starred.toISOString() })),
        },
      };
    },
  }),
  // "Now playing" is not kept yet (scrobble with submission=false keeps nothing).
  getNowPlaying: method({ args: noArgs, answer: () => ({ nowPlaying: {} }) }),
};

const empty = (container: string) => method({ args: noArgs, answer: () => ({ [container]: {} }) });

/**
 * Answers that stay empty until our model holds what they list (issue 30 lets the rest of the
 * protocol answer an empty list): genres, lyrics (by song, and by artist and title), songs by
 * genre, podcasts, internet radio, bookmarks, shares, chat and videos. Apps call several of them
 * on their home screens, where an error would show. The methods that would make such things
 * (createBookmark, createShare…) answer 70, as every method not served (top and similar songs:
 * similar.ts).
 */
export const emptyMethods = {
  getGenres: empty("genres"),
  getLyricsBySongId: empty("lyricsList"),
  getLyrics: empty("lyrics"),
  getSongsByGenre: method({
    args: (params) => required(params, "genre"),
    answer: () => ({ songsByGenre: {} }),
  }),
  getPodcasts: empty("podcasts"),
  getNewestPodcasts: empty("newestPodcasts"),
  getInternetRadioStations: empty("internetRadioStations"),
  getBookmarks: empty("bookmarks"),
  getShares: empty("shares"),
  getChatMessages: empty("chatMessages"),
  getVideos: empty("videos"),
};
