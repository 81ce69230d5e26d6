import {
  artists,
  type Playlist,
  playlistLikes,
  playlists,
  playlistTracks,
  type Queryable,
  qualified,
  tracks,
  users,
} from "@edge-music/db";
import { and, asc, eq, getTableColumns, or, type SQL, sql } from "drizzle-orm";
import { listedTrack } from "../sharing/queries.ts";
import type { PlaylistOut, PlaylistPatch } from "./schema.ts";

/*
 * Tracks whose conversion is not READY cannot be played, and tracks that are not public are not
 * for everyone's eyes (ADR 0025): playlists list and count listed tracks only (`listedTrack`),
 * for everyone (the owner included), so that lists and counts always agree. A track its artist
 * makes unlisted or private stays in the playlist, hidden, and is back when it is public again.
 */

/** Public playlists, plus the caller's own private ones. */
export function visibleTo(userId: string | null): SQL {
  const isPublic = eq(playlists.isPublic, true);
  return userId ? (or(isPublic, eq(playlists.userId, userId)) as SQL) : isPublic;
}

export const trackCount = sql<number>`(
  select count(*) from ${playlistTracks}
  join ${tracks} on ${qualified(tracks.id)} = ${qualified(playlistTracks.trackId)}
  where ${qualified(playlistTracks.playlistId)} = ${qualified(playlists.id)}
    and ${listedTrack}
)`.mapWith(Number);

export const likeCount = sql<number>`(
  select count(*) from ${playlistLikes} where ${qualified(playlistLikes.playlistId)} = ${qualified(playlists.id)}
)`.mapWith(Number);

/**
 * A playlist's columns without its search forms (db/src/schema/search.ts), which no DTO shows,
 * and with its owner's display name (a scalar subquery on the primary key: no join of its own).
 */
const { searchText: _text, searchVector: _vector, ...tableColumns } = getTableColumns(playlists);
export const playlistColumns = {
  ...tableColumns,
  ownerDisplayName: sql<
    string | null
  >`(select ${qualified(users.displayName)} from ${users} where ${qualified(users.id)} = ${qualified(playlists.userId)})`,
};

export type PlaylistRow = Omit<Playlist, "searchText" | "searchVector"> & {
  ownerDisplayName: string | null;
};

/** The playlist fields every DTO shares, from a row. */
export const playlistFields = (row: PlaylistRow) => ({
  id: row.id,
  title: row.title,
  description: row.description,
  cover: row.cover,
  isPublic: row.isPublic,
  visibility: row.visibility,
  userId: row.userId,
  owner: { id: row.userId, displayName: row.ownerDisplayName },
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The full READY track list of a playlist, in playlist order. */
/** The READY tracks of a playlist in order, as a query (to await, or to send in a batch). */
export const playlistTrackRows = (db: Queryable, playlistId: string) =>
  db
    .select({
      id: tracks.id,
      title: tracks.title,
      cover: tracks.cover,
      duration: tracks.duration,
      artistId: tracks.artistId,
      artist: {
        id: artists.id,
        username: artists.username,
        displayName: artists.displayName,
        avatar: artists.avatar,
      },
      addedAt: playlistTracks.addedAt,
    })
    .from(playlistTracks)
    .innerJoin(tracks, eq(tracks.id, playlistTracks.trackId))
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(and(eq(playlistTracks.playlistId, playlistId), listedTrack))
    .orderBy(asc(playlistTracks.position), asc(tracks.id));

type TrackRow = Awaited<ReturnType<typeof playlistTrackRows>>[number];
const trackListOf = (rows: TrackRow[]) =>
  rows.map((row) => ({ ...row, addedAt: row.addedAt.toISOString() }));

export async function playlistTrackList(db: Queryable, playlistId: string) {
  return trackListOf(await playlistTrackRows(db, playlistId));
}

/** Whether `userId` likes the outer query's playlist (false for no user): a column, not a statement. */
const likedColumn = (userId: string | null) =>
  userId
    ? sql<boolean>`exists (
        select 1 from ${playlistLikes}
        where ${qualified(playlistLikes.playlistId)} = ${qualified(playlists.id)}
          and ${qualified(playlistLikes.userId)} = ${userId}
      )`
    : sql<boolean>`false`;

/**
 * A playlist's row with its like count, and whether `likedBy` likes it, as a query (to await, or
 * to send in a batch).
 */
export const playlistRow = (
  db: Queryable,
  id: string,
  where?: SQL,
  likedBy: string | null = null,
) =>
  db
    .select({ playlist: playlistColumns, likes: likeCount, liked: likedColumn(likedBy) })
    .from(playlists)
    .where(and(eq(playlists.id, id), where));

type PlaylistWithLikes = Awaited<ReturnType<typeof playlistRow>>[number];

/** A playlist as answered, from its row and its track rows (null when there is no row). */
export function toPlaylist(
  row: PlaylistWithLikes | undefined,
  trackRows: TrackRow[],
): PlaylistOut | null {
  if (!row) return null;
  const list = trackListOf(trackRows);
  return {
    ...playlistFields(row.playlist),
    tracks: list,
    _count: { tracks: list.length, likes: row.likes },
  };
}

/**
 * The playlist's owner and cover, as a query (to await, or to send in a batch). With `lock`, the
 * row stays locked until the transaction ends, so concurrent writes of one playlist queue.
 */
export function ownerRow(db: Queryable, id: string, { lock = false } = {}) {
  const query = db
    .select({ id: playlists.id, userId: playlists.userId, cover: playlists.cover })
    .from(playlists)
    .where(eq(playlists.id, id));
  return lock ? query.for("update") : query;
}

/**
 * `visibility` in step with a changed `isPublic` (the database checks that they agree, ADR 0025):
 * true is public; false makes a public playlist private and leaves an unlisted one unlisted.
 */
function visibilityOf(fields: PlaylistPatch) {
  // Given both, they agree (the schema checks); `visibility` says more.
  if (fields.visibility !== undefined) {
    return { visibility: fields.visibility, isPublic: fields.visibility === "public" };
  }
  if (fields.isPublic === undefined) return {};
  return {
    visibility: fields.isPublic
      ? sql`'public'::visibility`
      : sql`CASE WHEN ${playlists.visibility} = 'public' THEN 'private'::visibility ELSE ${playlists.visibility} END`,
  };
}

/** A new playlist of `userId` (`id` when the caller names it for later statements of a batch). */
export function insertPlaylist(
  db: Queryable,
  userId: string,
  input: { title: string; description: string } & Pick<PlaylistPatch, "isPublic" | "visibility">,
  id?: string,
) {
  const visibility = input.visibility ?? (input.isPublic ? "public" : "private");
  return db
    .insert(playlists)
    .values({
      ...(id ? { id } : {}),
      title: input.title,
      description: input.description,
      isPublic: visibility === "public",
      visibility,
      userId,
    })
    .returning(playlistColumns);
}

/**
 * The given fields of the playlist changed (and its other columns in `also`, a new cover),
 * only when `userId` owns it; the playlist touched.
 */
export const updatePlaylistRow = (
  db: Queryable,
  id: string,
  userId: string,
  fields: PlaylistPatch,
  also: Record<string, unknown> = {},
) =>
  db
    .update(playlists)
    .set({ ...fields, ...visibilityOf(fields), ...also, updatedAt: sql`now()` })
    .where(and(eq(playlists.id, id), eq(playlists.userId, userId)));

/** The playlist deleted (entries and likes by cascade) when `userId` owns it; its cover answered. */
export const deletePlaylistRow = (db: Queryable, id: string, userId: string) =>
  db
    .delete(playlists)
    .where(and(eq(playlists.id, id), eq(playlists.userId, userId)))
    .returning({ cover: playlists.cover });
