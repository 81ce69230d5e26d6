import {
  albums,
  artistLikes,
  artists,
  type HttpDatabase,
  qualified,
  trackFiles,
  trackLikes,
  trackRatings,
  tracks,
} from "@edge-music/db";
import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { listedAlbum, listedTrack } from "../sharing/queries.ts";

/**
 * What the door may ever list or read (issue 30's one-model rule, ADR 0025): READY tracks that
 * are public, in no album or in a public one. An album or an artist is listed while it has one.
 * Unlisted and private items never pass this door, share key or not: apps keep what they list
 * (offline copies, caches), so an unlisted link would outlive its rotation there.
 */
export const publicAlbum = listedAlbum;
export const ready = and(
  listedTrack,
  // NOT EXISTS, not `album_id is null or exists (…)`: an anti-join, which the planner reads by
  // index probes under a LIMIT (a page) and by a hash over everything (album lists); the OR
  // form always hashed every album first (4–25 ms a page in bench/subsonic.bench.ts).
  sql`not exists (select 1 from ${albums} where ${qualified(albums.id)} = ${qualified(tracks.albumId)} and ${qualified(albums.visibility)} <> 'public')`,
) as SQL;

/** The name people see: the display name, else the username. */
export const artistName = sql<string>`coalesce(${artists.displayName}, ${artists.username})`;

/**
 * The album a track appears in: its album, or (no album) a single-track album of its own whose
 * id is derived from the track's, so that apps that browse by album reach every track.
 */
export const SINGLE_PREFIX = "single-";
// The prefix is written into the SQL, not bound: GROUP BY must see the very same expression.
export const albumIdOf = sql<string>`coalesce(${tracks.albumId}::text, ${sql.raw(`'${SINGLE_PREFIX}'`)} || ${tracks.id}::text)`;

/** An artist's listed albums, its singles counted as albums (ArtistID3's albumCount). */
export const listedAlbumCount = sql<number>`(select count(distinct ${albumIdOf})::int from ${tracks} where ${qualified(tracks.artistId)} = ${qualified(artists.id)} and ${ready})`;

/** What a song node needs, in one row per track (the album by primary key, no join of its own). */
export const SONG_COLUMNS = {
  id: tracks.id,
  title: tracks.title,
  cover: tracks.cover,
  duration: tracks.duration,
  albumPosition: tracks.albumPosition,
  createdAt: tracks.createdAt,
  // Counted plays of everyone (ADR 0028), kept by the plays queue's consumer.
  playCount: tracks.plays,
  artistId: tracks.artistId,
  artistName,
  albumId: albumIdOf,
  albumTitle: sql<string>`coalesce((select ${qualified(albums.title)} from ${albums} where ${qualified(albums.id)} = ${qualified(tracks.albumId)}), ${tracks.title})`,
  albumCover: sql<
    string | null
  >`(select ${qualified(albums.cover)} from ${albums} where ${qualified(albums.id)} = ${qualified(tracks.albumId)})`,
};

/**
 * A listener's own marks on a song: their rating and when they starred it. Read for the claimed
 * listener (see CredentialCheck.claimedUserId): the answer keeps them only when the caller is
 * that listener (`ownMarks`).
 */
export const songMarks = (userId: SQL) => ({
  userRating: sql<
    number | null
  >`(select ${qualified(trackRatings.rating)} from ${trackRatings} where ${qualified(trackRatings.userId)} = ${userId} and ${qualified(trackRatings.trackId)} = ${qualified(tracks.id)})`,
  starredAt: sql<
    string | null
  >`(select ${qualified(trackLikes.createdAt)} from ${trackLikes} where ${qualified(trackLikes.userId)} = ${userId} and ${qualified(trackLikes.trackId)} = ${qualified(tracks.id)})`,
});

/** Rows without the claimed listener's marks when the caller is not that listener. */
export function ownMarks<R extends Partial<ReturnType<typeof noMarks>>>(rows: R[], mine: boolean) {
  return mine ? rows : rows.map((row) => ({ ...row, ...noMarks() }));
}
const noMarks = () => ({ userRating: null as number | null, starredAt: null as string | null });

export type SongRow = Awaited<ReturnType<typeof songQuery>>[number] &
  Partial<ReturnType<typeof noMarks>>;

/** Every artist with a READY track, by name, with how many albums (singles included) it has. */
export function artistsQuery(db: HttpDatabase) {
  return db
    .select({
      id: artists.id,
      name: artistName,
      avatar: artists.avatar,
      albumCount: sql<number>`count(distinct ${albumIdOf})::int`,
    })
    .from(artists)
    .innerJoin(tracks, and(eq(tracks.artistId, artists.id), ready))
    .groupBy(artists.id)
    .orderBy(sql`lower(${artistName})`, asc(artists.id));
}

export function artistQuery(db: HttpDatabase, id: string) {
  return db
    .select({ id: artists.id, name: artistName, avatar: artists.avatar })
    .from(artists)
    .where(eq(artists.id, id));
}

/** An artist's albums (its singles as albums of one), the oldest first. */
export function artistAlbumsQuery(db: HttpDatabase, artistId: string) {
  const singleCover = sql<
    string | null
  >`(array_agg(${tracks.cover}) filter (where ${tracks.albumId} is null))[1]`;
  return db
    .select({
      id: albumIdOf,
      name: sql<string>`coalesce(min(${albums.title}), min(${tracks.title}))`,
      cover: sql<string | null>`coalesce(min(${albums.cover}), ${singleCover})`,
      songCount: sql<number>`count(*)::int`,
      duration: sql<number>`coalesce(sum(${tracks.duration}), 0)::float8`,
      created: sql<string>`min(${tracks.createdAt})`,
      releasedAt: sql<string | null>`min(${albums.releasedAt})::text`,
    })
    .from(tracks)
    .leftJoin(albums, eq(albums.id, tracks.albumId))
    .where(and(eq(tracks.artistId, artistId), ready))
    .groupBy(albumIdOf)
    .orderBy(sql`min(${tracks.createdAt})`, albumIdOf);
}

/** The READY tracks of an album in their order, or the one track of a single. */
export function albumSongsQuery(db: HttpDatabase, albumId: string, userId?: SQL) {
  const single = albumId.startsWith(SINGLE_PREFIX) ? albumId.slice(SINGLE_PREFIX.length) : null;
  const where = single
    ? and(eq(tracks.id, single), sql`${tracks.albumId} is null`)
    : eq(tracks.albumId, albumId);
  return db
    .select({ ...SONG_COLUMNS, ...(userId ? songMarks(userId) : {}) })
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(and(where, ready))
    .orderBy(sql`${tracks.albumPosition} asc nulls last`, asc(tracks.createdAt), asc(tracks.id));
}

/** The album row itself (none for a single: its track stands for it). */
export function albumQuery(db: HttpDatabase, albumId: string) {
  return db
    .select({ id: albums.id, releasedAt: albums.releasedAt, createdAt: albums.createdAt })
    .from(albums)
    .where(and(eq(albums.id, albumId), publicAlbum));
}

export function songQuery(db: HttpDatabase, trackId: string, userId?: SQL) {
  return db
    .select({ ...SONG_COLUMNS, ...(userId ? songMarks(userId) : {}) })
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(and(eq(tracks.id, trackId), ready));
}

/** The Opus files of a READY track, by bitrate. */
export function audioFilesQuery(db: HttpDatabase, trackId: string) {
  return db
    .select({
      kind: trackFiles.kind,
      bitrate: trackFiles.bitrate,
      key: trackFiles.storageKey,
      size: trackFiles.sizeBytes,
    })
    .from(trackFiles)
    .innerJoin(tracks, eq(tracks.id, trackFiles.trackId))
    .where(and(eq(trackFiles.trackId, trackId), inArray(trackFiles.kind, ["opus", "aac"]), ready));
}

/** The media path of a cover by its kind: a READY track's (else its album's), an album's, an avatar. */
export function coverQuery(db: HttpDatabase, kind: "tr" | "al" | "ar", id: string) {
  if (kind === "tr") {
    return db
      .select({
        path: sql<string | null>`coalesce(${SONG_COLUMNS.cover}, ${SONG_COLUMNS.albumCover})`,
      })
      .from(tracks)
      .where(and(eq(tracks.id, id), ready));
  }
  if (kind === "al") {
    return db
      .select({ path: albums.cover })
      .from(albums)
      .where(and(eq(albums.id, id), publicAlbum));
  }
  return db.select({ path: artists.avatar }).from(artists).where(eq(artists.id, id));
}

/** How many stars getStarred2 answers of each kind (the protocol has no paging there). */
export const STARRED_MAX = 1000;

/** A listener's liked READY tracks (their stars), the newest like first. */
export function starredSongsQuery(db: HttpDatabase, userId: SQL) {
  return db
    .select({ ...SONG_COLUMNS, starred: trackLikes.createdAt })
    .from(trackLikes)
    .innerJoin(tracks, eq(tracks.id, trackLikes.trackId))
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(and(eq(trackLikes.userId, userId), ready))
    .orderBy(desc(trackLikes.createdAt), desc(trackLikes.trackId))
    .limit(STARRED_MAX);
}

/** A listener's liked artists (their stars), the newest like first. */
export function starredArtistsQuery(db: HttpDatabase, userId: SQL) {
  return db
    .select({
      id: artists.id,
      name: artistName,
      avatar: artists.avatar,
      albumCount: listedAlbumCount,
      starred: artistLikes.createdAt,
    })
    .from(artistLikes)
    .innerJoin(artists, eq(artists.id, artistLikes.artistId))
    .where(eq(artistLikes.userId, userId))
    .orderBy(desc(artistLikes.createdAt), desc(artistLikes.artistId))
    .limit(STARRED_MAX);
}
