import { albums, artists, type HttpDatabase, qualified, tracks } from "@edge-music/db";
import { and, asc, eq, gt, gte, isNull, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import {
  albumIdOf,
  artistName,
  listedAlbumCount,
  publicAlbum,
  ready,
  SINGLE_PREFIX,
  SONG_COLUMNS,
} from "./queries.ts";

/**
 * The whole catalogue, page by page (search3 with an empty query: Symfonium's offline sync).
 * Each kind has one stable order on a primary key: artists and songs by id, albums by their
 * Subsonic id (real albums by id, then the singles `single-<track id>`, which sort after any
 * hexadecimal id). The protocol pages by `offset`; a page's offset is turned into a keyset seek
 * (`id > the last id of the page before`) when this isolate answered that page before: see
 * `seekAfter`. Otherwise (a new isolate, a jump) the page is read with OFFSET on the same order.
 */
export interface Page {
  count: number;
  offset: number;
}

export type Kind = "artist" | "album" | "song";

/**
 * Where a page starts, learnt from the page before it (the key of its last row), per isolate.
 * An app syncs page after page (offset 0, 500, 1000…), so the next page's offset is usually
 * the end of the one just answered. An entry keeps for 10 minutes: it is a keyset cursor, so a
 * catalogue changed meanwhile shifts the page as keyset paging does (nothing skipped or repeated
 * of the rows that stayed), where OFFSET would skip or repeat.
 */
const seeks = new Map<string, { after: string; at: number }>();
const SEEKS_MAX = 10_000;
const SEEK_TTL_MS = 10 * 60_000;

/**
 * Whose sweep a page belongs to: the credential the call claims (its username, or its API key
 * by a hash). Seeks are kept per sweeper: a seek remembered from another app's sweep may come
 * from a moment when the catalogue differed (a row added before its page), and would repeat or
 * skip rows of this one. Only an answered call (credentials checked) remembers a seek.
 */
export function sweeperOf(params: URLSearchParams): string {
  const apiKey = params.get("apiKey");
  if (apiKey === null) return `u:${(params.get("u") ?? "").toLowerCase()}`;
  // FNV-1a: the key itself is not kept in the isolate's memory; a collision only shares seeks.
  let hash = 0x811c9dc5;
  for (let i = 0; i < apiKey.length; i++) {
    hash = Math.imul(hash ^ apiKey.charCodeAt(i), 0x01000193) >>> 0;
  }
  return `k:${hash.toString(16)}:${apiKey.length}`;
}

export function seekAfter(sweeper: string, kind: Kind, offset: number, now: Date): string | null {
  if (offset === 0) return null;
  const seek = seeks.get(`${sweeper}:${kind}:${offset}`);
  if (!seek || now.getTime() - seek.at > SEEK_TTL_MS) return null;
  return seek.after;
}

export function rememberSeek(
  sweeper: string,
  kind: Kind,
  offset: number,
  after: string,
  now: Date,
) {
  const key = `${sweeper}:${kind}:${offset}`;
  seeks.delete(key);
  seeks.set(key, { after, at: now.getTime() });
  // A Map iterates in insertion order: the first entry is the oldest.
  if (seeks.size > SEEKS_MAX) seeks.delete(seeks.keys().next().value as string);
}

/**
 * Where a page starts: after a remembered id (a seek), at the start, or (a miss) at the id that
 * OFFSET finds in a subquery of the bare rows, so that the rows skipped cost their filter only,
 * never the page's columns (joins and subqueries per row). The subquery reads the same table
 * under the same name: `listed` binds to it, the closest scope.
 */
function startOf(db: HttpDatabase, key: PgColumn, listed: SQL, page: Page, after: string | null) {
  if (after !== null) return gt(key, after);
  if (page.offset === 0) return undefined;
  const table = key.table;
  const start = db
    .select({ id: key })
    .from(table)
    .where(listed)
    .orderBy(asc(key))
    .offset(page.offset)
    .limit(1);
  return gte(key, start);
}

export function catalogueSongs(db: HttpDatabase, page: Page, after: string | null) {
  return db
    .select(SONG_COLUMNS)
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(and(ready, startOf(db, tracks.id, ready, page, after)))
    .orderBy(asc(tracks.id))
    .limit(page.count);
}

const listedTrackOf = (column: SQL) =>
  sql`exists (select 1 from ${tracks} where ${column} and ${ready})`;

/** ArtistID3's columns; albumCount counts its singles as albums, as getArtists does. */
export const ARTIST_COLUMNS = {
  id: artists.id,
  name: artistName,
  avatar: artists.avatar,
  albumCount: listedAlbumCount,
};

export const listedArtist = listedTrackOf(
  sql`${qualified(tracks.artistId)} = ${qualified(artists.id)}`,
);

export function catalogueArtists(db: HttpDatabase, page: Page, after: string | null) {
  // One pass over each artist's listed tracks (zero albums: not listed), as for albums below.
  const counts = db
    .select({ albumCount: sql<number>`count(distinct ${albumIdOf})::int`.as("album_count") })
    .from(tracks)
    .where(and(sql`${qualified(tracks.artistId)} = ${qualified(artists.id)}`, ready))
    .as("counts");
  return db
    .select({ ...ARTIST_COLUMNS, albumCount: counts.albumCount })
    .from(artists)
    .innerJoinLateral(counts, sql`${counts.albumCount} > 0`)
    .where(startOf(db, artists.id, listedArtist, page, after))
    .orderBy(asc(artists.id))
    .limit(page.count);
}

const inAlbum = sql`${qualified(tracks.albumId)} = ${qualified(albums.id)}`;
export const listedAlbum = and(publicAlbum, listedTrackOf(inAlbum)) as SQL;

/** AlbumID3's columns of a real album, its listed tracks only. */
export const ALBUM_COLUMNS = {
  id: sql<string>`${albums.id}::text`,
  name: albums.title,
  cover: albums.cover,
  songCount: sql<number>`(select count(*)::int from ${tracks} where ${inAlbum} and ${ready})`,
  duration: sql<number>`(select coalesce(sum(${tracks.duration}), 0)::float8 from ${tracks} where ${inAlbum} and ${ready})`,
  created: albums.createdAt,
  releasedAt: sql<string | null>`${albums.releasedAt}::text`,
  artistId: albums.artistId,
  artistName,
};

/** The same columns for a single's album of one track. */
const SINGLE_COLUMNS = {
  id: sql<string>`${sql.raw(`'${SINGLE_PREFIX}'`)} || ${tracks.id}::text`,
  name: tracks.title,
  cover: tracks.cover,
  songCount: sql<number>`1`,
  duration: sql<number>`coalesce(${tracks.duration}, 0)::float8`,
  created: tracks.createdAt,
  releasedAt: sql<string | null>`null::text`,
  artistId: tracks.artistId,
  artistName,
};

/**
 * A page of albums: real albums then singles, as two statements (each at most `count` rows)
 * whose rows the Worker puts end to end. A seek names one or the other; an OFFSET read skips
 * into the singles by what the real albums hold.
 */
export function catalogueAlbums(db: HttpDatabase, page: Page, after: string | null) {
  const single = after?.startsWith(SINGLE_PREFIX) ? after.slice(SINGLE_PREFIX.length) : null;
  // One pass over each album's listed tracks (count and length, zero rows: not listed), where
  // the columns' two counts and the listed check read them three times (bench/subsonic.bench.ts).
  const counts = db
    .select({
      songCount: sql<number>`count(*)::int`.as("song_count"),
      duration: sql<number>`coalesce(sum(${tracks.duration}), 0)::float8`.as("duration"),
    })
    .from(tracks)
    .where(and(inAlbum, ready))
    .as("counts");
  const realAlbums = db
    .select({ ...ALBUM_COLUMNS, songCount: counts.songCount, duration: counts.duration })
    .from(albums)
    .innerJoin(artists, eq(artists.id, albums.artistId))
    .innerJoinLateral(counts, sql`${counts.songCount} > 0`)
    .where(and(publicAlbum, startOf(db, albums.id, listedAlbum, page, after)))
    .orderBy(asc(albums.id))
    .limit(page.count);
  const albumsBefore = sql`greatest(0, ${page.offset} - (select count(*) from ${albums} where ${listedAlbum}))`;
  const singles = db
    .select(SINGLE_COLUMNS)
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(and(isNull(tracks.albumId), ready, single === null ? undefined : gt(tracks.id, single)))
    .orderBy(asc(tracks.id))
    .limit(page.count)
    // drizzle writes the offset as given: a subquery counts the real albums before the singles.
    .offset((after === null && page.offset > 0 ? albumsBefore : 0) as unknown as number);
  return single === null ? [realAlbums, singles] : [singles];
}
