import {
  artists,
  type HttpDatabase,
  playlists,
  playlistTracks,
  qualified,
  tracks,
  users,
} from "@edge-music/db";
import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import { uuidArg } from "./args.ts";
import { notFound, SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { method } from "./method.ts";
import { songNode } from "./model.ts";
import { ready, SONG_COLUMNS, type SongRow } from "./queries.ts";

/**
 * Playlists are the REST API's playlists (one model): a listener's own, all of them whatever
 * their visibility, and anyone's public one by id; another listener's unlisted or private
 * playlist answers 70. Only listed tracks (`ready`: READY and public) are in them here, as
 * everywhere.
 */
const PLAYLIST_COLUMNS = {
  id: playlists.id,
  name: playlists.title,
  comment: playlists.description,
  isPublic: playlists.isPublic,
  visibility: playlists.visibility,
  userId: playlists.userId,
  owner: users.username,
  created: playlists.createdAt,
  changed: playlists.updatedAt,
  songCount: sql<number>`(select count(*)::int from ${playlistTracks} join ${tracks} on ${tracks.id} = ${playlistTracks.trackId} where ${playlistTracks.playlistId} = ${qualified(playlists.id)} and ${ready})`,
  duration: sql<number>`(select coalesce(sum(${tracks.duration}), 0)::float8 from ${playlistTracks} join ${tracks} on ${tracks.id} = ${playlistTracks.trackId} where ${playlistTracks.playlistId} = ${qualified(playlists.id)} and ${ready})`,
};

export type PlaylistRow = Awaited<ReturnType<typeof playlistQuery>>[number];

const playlistsOf = (db: HttpDatabase, userId: SQL) =>
  db
    .select(PLAYLIST_COLUMNS)
    .from(playlists)
    .innerJoin(users, eq(users.id, playlists.userId))
    .where(eq(playlists.userId, userId))
    .orderBy(desc(playlists.updatedAt), desc(playlists.id));

export const playlistQuery = (db: HttpDatabase, id: string) =>
  db
    .select(PLAYLIST_COLUMNS)
    .from(playlists)
    .innerJoin(users, eq(users.id, playlists.userId))
    .where(eq(playlists.id, id));

/** The playlist's songs as apps see them (listed, in order): what their indexes point at. */
export const playlistSongsQuery = (db: HttpDatabase, id: string) =>
  db
    .select(SONG_COLUMNS)
    .from(playlistTracks)
    .innerJoin(tracks, eq(tracks.id, playlistTracks.trackId))
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(and(eq(playlistTracks.playlistId, id), ready))
    .orderBy(asc(playlistTracks.position), asc(playlistTracks.trackId));

export const playlistNode = (row: PlaylistRow) => ({
  id: row.id,
  name: row.name,
  comment: row.comment || undefined,
  owner: row.owner,
  public: row.isPublic,
  songCount: row.songCount,
  duration: Math.round(row.duration),
  created: row.created.toISOString(),
  changed: row.changed.toISOString(),
});

export const playlistMethods = {
  getPlaylists: method({
    args: (params) => params.get("username") ?? undefined,
    reads: (deps, _username, userId) => [playlistsOf(deps.db, userId)],
    answer: ({ args: username, caller, results }) => {
      if (username !== undefined && username.toLowerCase() !== caller.username.toLowerCase()) {
        throw new SubsonicError(
          SUBSONIC_ERRORS.notAuthorized,
          "User is not authorized for the given operation: only your own playlists.",
        );
      }
      // Read for the claimed listener: the caller's only if it is one (artists have none).
      const rows = caller.kind === "user" ? (results[0] as PlaylistRow[]) : [];
      return { playlists: { playlist: rows.map(playlistNode) } };
    },
  }),
  getPlaylist: method({
    args: (params) => uuidArg(params, "id", "Playlist"),
    reads: (deps, id) => [playlistQuery(deps.db, id), playlistSongsQuery(deps.db, id)],
    answer: ({ caller, results }) => {
      const [row] = results[0] as PlaylistRow[];
      const own = row !== undefined && caller.kind === "user" && row.userId === caller.id;
      // Another's playlist only when public: unlisted ones too answer 70 here (ADR 0025).
      if (!row || !(row.visibility === "public" || own)) throw notFound("Playlist");
      const songs = results[1] as SongRow[];
      return { playlist: { ...playlistNode(row), entry: songs.map(songNode) } };
    },
  }),
};
