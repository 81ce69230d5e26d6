import {
  albums,
  artists,
  follows,
  playlistLikes,
  playlists,
  type Queryable,
  qualified,
  tracks,
  users,
} from "@edge-music/db";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { listedAlbum, listedTrack } from "../sharing/queries.ts";
import {
  contains,
  containsRankOf,
  nameEdits,
  nameMatch,
  nameRankOf,
  nearMatch,
  nearRankOf,
  nearWords,
  primaryMatch,
  primaryRankOf,
  type SearchColumns,
  type SearchNames,
  type SearchTerms,
  WEAK_RANK,
} from "./matching.ts";
import type { AlbumResult, ArtistResult, PlaylistResult, TrackResult } from "./schema.ts";

/** What one searchable type needs: its table, the item's fields, who may see a row, the order. */
export interface Searchable {
  table: PgTable & SearchColumns & { id: AnyPgColumn };
  /** Item field name → expression; `rank` is added. */
  fields: Record<string, SQL | AnyPgColumn>;
  visible?: SQL;
  /** After rank, highest first: popularity where the type has one, then newest, then id. */
  tieBreakers: SQL[];
  /** A table of names (artists): matched by each name and by names typed run together. */
  names?: SearchNames;
}

/** Who made a track or an album, as a JSON object of the result row. */
const artistOf = (artistId: AnyPgColumn) =>
  sql`(SELECT json_build_object('id', ${qualified(artists.id)}, 'username', ${qualified(artists.username)}, 'displayName', ${qualified(artists.displayName)}) FROM ${artists} WHERE ${qualified(artists.id)} = ${qualified(artistId)})`;

const nameForm = (column: AnyPgColumn) => sql`lower(public.immutable_unaccent(${column}))`;

export const SEARCHABLE = {
  tracks: {
    table: tracks,
    fields: {
      id: tracks.id,
      title: tracks.title,
      cover: tracks.cover,
      artistId: tracks.artistId,
      artist: artistOf(tracks.artistId),
    },
    visible: listedTrack,
    tieBreakers: [sql`${tracks.createdAt}`, sql`${tracks.id}`],
  },
  artists: {
    table: artists,
    fields: {
      id: artists.id,
      username: artists.username,
      displayName: artists.displayName,
      avatar: artists.avatar,
      bio: artists.bio,
    },
    names: {
      handle: nameForm(artists.username),
      forms: [nameForm(artists.username), nameForm(artists.displayName)],
      compact: [artists.searchHandle, artists.searchDisplay],
    },
    tieBreakers: [
      sql`(SELECT count(*) FROM ${follows} WHERE ${follows.artistId} = ${artists.id})`,
      sql`${artists.createdAt}`,
      sql`${artists.id}`,
    ],
  },
  albums: {
    table: albums,
    fields: {
      id: albums.id,
      title: albums.title,
      cover: albums.cover,
      artistId: albums.artistId,
      artist: artistOf(albums.artistId),
      // A calendar date as written: the driver would turn a `date` into a Date at midnight UTC.
      releasedAt: sql`${albums.releasedAt}::text`,
    },
    visible: listedAlbum,
    tieBreakers: [sql`${albums.createdAt}`, sql`${albums.id}`],
  },
  playlists: {
    table: playlists,
    fields: {
      id: playlists.id,
      title: playlists.title,
      description: playlists.description,
      cover: playlists.cover,
      userId: playlists.userId,
      owner: sql`json_build_object('id', ${qualified(playlists.userId)}, 'displayName', (SELECT ${qualified(users.displayName)} FROM ${users} WHERE ${qualified(users.id)} = ${qualified(playlists.userId)}))`,
    },
    visible: eq(playlists.isPublic, true),
    tieBreakers: [
      sql`(SELECT count(*) FROM ${playlistLikes} WHERE ${playlistLikes.playlistId} = ${playlists.id})`,
      sql`${playlists.createdAt}`,
      sql`${playlists.id}`,
    ],
  },
} satisfies Record<string, Searchable>;

const id = (name: string) => sql.identifier(name);
const keyName = (i: number) => `order_key_${i}`;

/** `rank DESC, <tie-breakers> DESC`, over the output columns of `rankedRows`. */
const orderOf = ({ tieBreakers }: Searchable) =>
  sql.join([sql`rank DESC`, ...tieBreakers.map((_, i) => sql`${id(keyName(i))} DESC`)], sql`, `);

/**
 * The best `limit` of `candidates` (a SELECT of the table's rows, `<table>.*` and `rank`): the
 * item fields, rank and order keys. Tie-breakers may cost a subquery per row (a like count): the
 * rows are first cut to the best `limit` by rank alone, with ties, and only those get their
 * tie-breakers. The result is the same (the best `limit` by rank and tie-breakers all rank at
 * least as high as the `limit`-th by rank).
 */
export function bestRows(searchable: Searchable, candidates: SQL, limit: number): SQL {
  const { table, fields, tieBreakers } = searchable;
  const columns = sql.join(
    [
      ...Object.entries(fields).map(([name, expr]) => sql`${expr} AS ${id(name)}`),
      ...tieBreakers.map((expr, i) => sql`${expr} AS ${id(keyName(i))}`),
      sql`rank`,
    ],
    sql`, `,
  );
  return sql`SELECT ${columns} FROM (${candidates}
    ORDER BY rank DESC FETCH FIRST ${limit} ROWS WITH TIES) AS ${table}
    ORDER BY ${orderOf(searchable)} LIMIT ${limit}`;
}

/**
 * The search of one type as one statement: the best `limit` rows of the primary match (indexed,
 * ranked WEAK_RANK or more), and only when they are fewer than `limit`, the best of the rest
 * (substring inside the title, near spellings; ranked below it). Rows are ordered by rank, then
 * the type's tie-breakers.
 */
export function searchStatement(searchable: Searchable, terms: SearchTerms, limit: number): SQL {
  const { table, fields, visible, names } = searchable;
  const primary = primaryMatch(table, terms, names);
  const hits = bestRows(
    searchable,
    sql`SELECT ${table}.*, ${primaryRankOf(table, terms, names)} AS rank FROM ${table}
      WHERE ${and(visible, primary)}`,
    limit,
  );

  const inside = contains(table, terms);
  const insideRows = sql`SELECT ${table}.*, ${containsRankOf(table, terms)} AS rank FROM ${table}
    WHERE ${and(visible, inside)} AND NOT (${primary})`;
  const nearOnly = sql`SELECT ${table}.*, ${nearRankOf(table)} AS rank FROM ${table}
    WHERE ${and(visible, nearMatch(table, terms))} AND NOT (${primary}) AND NOT (${inside})`;
  // Names typed run together or with a typo near their start, when no other tier holds them.
  const namesOnly = names
    ? sql` UNION ALL SELECT ${table}.*, ${nameRankOf(terms)} AS rank FROM ${table} ${nameEdits(names, terms)}
    WHERE ${and(visible, nameMatch(names, terms))} AND NOT (${primary}) AND NOT (${inside})
      AND NOT (${nearMatch(table, terms)})`
    : sql``;
  // A row both inside and near ranks as inside (the one-statement definition: tiers.test.ts).
  // The gate, an InitPlan, is a one-time filter above everything of the secondary scans
  // (quals are not pushed into a subquery with a limit): when the primary rows reach the limit,
  // none of it starts — no near-word lookup, no parallel workers launched for a sequential scan
  // (24 ms on a 2-character query, for a scan that returned nothing).
  const tooFew = sql`(SELECT count(*) FROM hits WHERE rank >= ${WEAK_RANK}) < ${limit}`;
  const more = sql`SELECT * FROM (${bestRows(
    searchable,
    terms.fuzzy ? sql`${insideRows} UNION ALL ${nearOnly}${namesOnly}` : insideRows,
    limit,
  )}) AS below WHERE ${tooFew}`;
  const output = sql.join(
    [...Object.keys(fields), "rank"].map((name) => id(name)),
    sql`, `,
  );
  const near = terms.fuzzy ? sql`near AS MATERIALIZED (${nearWords(terms)}), ` : sql``;
  return sql`WITH hits AS MATERIALIZED (${hits}), ${near}more AS (${more})
    SELECT ${output} FROM (SELECT * FROM hits UNION ALL SELECT * FROM more) AS found
    ORDER BY ${orderOf(searchable)} LIMIT ${limit}`;
}

/** The result rows of `searchStatement`, without the ordering keys. */
export function searchRows<T>(searchable: Searchable, result: unknown): T[] {
  // Both drivers answer `{ rows }` (the HTTP one as full results).
  const { rows } = result as { rows: Record<string, unknown>[] };
  const names = [...Object.keys(searchable.fields), "rank"];
  return rows.map((row) => Object.fromEntries(names.map((n) => [n, row[n]])) as T);
}

async function run<T>(db: Queryable, searchable: Searchable, terms: SearchTerms, limit: number) {
  return searchRows<T>(searchable, await db.execute(searchStatement(searchable, terms, limit)));
}

export const findTracks = (db: Queryable, terms: SearchTerms, limit: number) =>
  run<TrackResult>(db, SEARCHABLE.tracks, terms, limit);
export const findArtists = (db: Queryable, terms: SearchTerms, limit: number) =>
  run<ArtistResult>(db, SEARCHABLE.artists, terms, limit);
export const findAlbums = (db: Queryable, terms: SearchTerms, limit: number) =>
  run<AlbumResult>(db, SEARCHABLE.albums, terms, limit);
export const findPlaylists = (db: Queryable, terms: SearchTerms, limit: number) =>
  run<PlaylistResult>(db, SEARCHABLE.playlists, terms, limit);
