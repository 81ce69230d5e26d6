import {
  albumLikes,
  albums,
  artists,
  type HttpDatabase,
  nowPlaying,
  tracks,
  users,
} from "@edge-music/db";
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { required } from "./args.ts";
import { ALBUM_COLUMNS, listedAlbum } from "./catalogue-pages.ts";
import { method, noArgs } from "./method.ts";
import { type AlbumRow, albumNode, artistNode, songNode } from "./model.ts";
import {
  ready,
  SONG_COLUMNS,
  type SongRow,
  STARRED_MAX,
  songMarks,
  starredArtistsQuery,
  starredSongsQuery,
} from "./queries.ts";

/** The listener's now-playing song, while it can still be playing. */
function nowPlayingQuery(db: HttpDatabase, userId: SQL) {
  return db
    .select({
      ...SONG_COLUMNS,
      ...songMarks(userId),
      username: users.username,
      client: nowPlaying.client,
      startedAt: nowPlaying.startedAt,
    })
    .from(nowPlaying)
    .innerJoin(tracks, eq(tracks.id, nowPlaying.trackId))
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .innerJoin(users, eq(users.id, nowPlaying.userId))
    .where(
      and(
        eq(nowPlaying.userId, userId),
        ready,
        sql`${nowPlaying.startedAt} > now() - make_interval(secs => coalesce(${tracks.duration}, 600) + 60)`,
      ),
    );
}

type NowPlayingRow = SongRow & { username: string; client: string; startedAt: Date | string };

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
  /**
   * What the caller's own apps said they are playing (`scrobble` with `submission=false`), while
   * the song can still be playing (its duration and a minute since). Only the caller's: on a
   * service of strangers, what another listener is playing is theirs.
   */
  getNowPlaying: method({
    args: noArgs,
    reads: (deps, _args, userId) => [nowPlayingQuery(deps.db, userId)],
    answer: ({ caller, results, deps }) => {
      const rows = caller.kind === "user" ? (results[0] as NowPlayingRow[]) : [];
      return {
        nowPlaying: {
          entry: rows.map((row) => ({
            ...songNode(row),
            username: row.username,
            minutesAgo: Math.max(
              0,
              Math.floor((deps.now.getTime() - new Date(row.startedAt).getTime()) / 60_000),
            ),
            playerId: 0,
            playerName: row.client || undefined,
          })),
        },
      };
    },
  }),
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
