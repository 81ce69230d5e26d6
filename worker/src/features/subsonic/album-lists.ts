import {
  albumLikes,
  albums,
  artists,
  type HttpDatabase,
  listeningHistory,
  trackRatings,
  tracks,
} from "@edge-music/db";
import { and, eq, type SQL, sql } from "drizzle-orm";
import { intArg, required } from "./args.ts";
import { SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { method } from "./method.ts";
import { type AlbumRow, albumNode, songNode } from "./model.ts";
import { albumIdOf, artistName, ready, SONG_COLUMNS, type SongRow } from "./queries.ts";

const TYPES = [
  "random",
  "newest",
  "highest",
  "frequent",
  "recent",
  "alphabeticalByName",
  "alphabeticalByArtist",
  "starred",
  "byYear",
  "byGenre",
] as const;
type ListType = (typeof TYPES)[number];

/** Lists our model cannot fill yet (no genres): empty, not an error. */
const EMPTY: ReadonlySet<ListType> = new Set(["byGenre"]);
/** Lists of the caller's own (plays, stars): read for the claimed listener, kept for one. */
const OWN: ReadonlySet<ListType> = new Set(["recent", "starred"]);

const MAX_SIZE = 500;
const sizeOf = (params: URLSearchParams, fallback: number) =>
  Math.min(Math.max(intArg(params, "size") ?? fallback, 1), MAX_SIZE);

interface ListArgs {
  type: ListType;
  size: number;
  offset: number;
  fromYear?: number;
  toYear?: number;
}

function listArgs(params: URLSearchParams): ListArgs {
  const type = required(params, "type") as ListType;
  if (!TYPES.includes(type)) {
    throw new SubsonicError(SUBSONIC_ERRORS.generic, `Unknown album list type '${type}'.`);
  }
  const fromYear = intArg(params, "fromYear");
  const toYear = intArg(params, "toYear");
  if (type === "byYear" && (fromYear === undefined || toYear === undefined)) {
    throw new SubsonicError(SUBSONIC_ERRORS.missingParameter, "byYear needs fromYear and toYear.");
  }
  const offset = Math.max(intArg(params, "offset") ?? 0, 0);
  return { type, size: sizeOf(params, 10), offset, fromYear, toYear };
}

/**
 * One page of the catalogue's albums (singles included) in the order a list type asks: newest
 * (first track added), by name, by artist, random, by release year (`fromYear` > `toYear`:
 * newest year first; singles have no year), the caller's recently played, the most played.
 */
function albumListQuery(db: HttpDatabase, args: ListArgs, userId: SQL) {
  const year = sql`extract(year from min(${albums.releasedAt}))`;
  const plays = (who?: SQL) =>
    sql`(select count(*) from ${listeningHistory} where ${listeningHistory.trackId} = any(array_agg(${tracks.id}))${who ? sql` and ${listeningHistory.userId} = ${who}` : sql``})`;
  const lastPlayed = sql`(select max(${listeningHistory.listenedAt}) from ${listeningHistory} where ${listeningHistory.userId} = ${userId} and ${listeningHistory.trackId} = any(array_agg(${tracks.id})))`;
  // Everyone's ratings of the album's tracks (`highest`); the caller's star of it (`starred`).
  const rating = sql`(select avg(${trackRatings.rating}) from ${trackRatings} where ${trackRatings.trackId} = any(array_agg(${tracks.id})))`;
  const starredAt = sql`(select ${albumLikes.createdAt} from ${albumLikes} where ${albumLikes.userId} = ${userId} and ${albumLikes.albumId} = any(array_agg(${tracks.albumId})))`;
  const orders: Record<ListType, SQL> = {
    newest: sql`min(${tracks.createdAt}) desc`,
    alphabeticalByName: sql`lower(coalesce(min(${albums.title}), min(${tracks.title})))`,
    alphabeticalByArtist: sql`lower(min(${artistName})), lower(coalesce(min(${albums.title}), min(${tracks.title})))`,
    random: sql`random()`,
    byYear: (args.fromYear ?? 0) > (args.toYear ?? 0) ? sql`${year} desc` : sql`${year} asc`,
    recent: sql`${lastPlayed} desc nulls last`,
    frequent: sql`${plays()} desc`,
    highest: sql`${rating} desc`,
    starred: sql`${starredAt} desc`,
    byGenre: sql`1`,
  };
  const low = Math.min(args.fromYear ?? 0, args.toYear ?? 0);
  const high = Math.max(args.fromYear ?? 0, args.toYear ?? 0);
  const having =
    args.type === "byYear"
      ? sql`${year} between ${low} and ${high}`
      : args.type === "recent"
        ? sql`${lastPlayed} is not null`
        : args.type === "frequent"
          ? sql`${plays()} > 0`
          : args.type === "highest"
            ? sql`${rating} is not null`
            : args.type === "starred"
              ? sql`${starredAt} is not null`
              : sql`true`;
  return db
    .select({
      id: albumIdOf,
      artistId: tracks.artistId,
      artistName: sql<string>`min(${artistName})`,
      name: sql<string>`coalesce(min(${albums.title}), min(${tracks.title}))`,
      cover: sql<
        string | null
      >`coalesce(min(${albums.cover}), (array_agg(${tracks.cover}) filter (where ${tracks.albumId} is null))[1])`,
      songCount: sql<number>`count(*)::int`,
      duration: sql<number>`coalesce(sum(${tracks.duration}), 0)::float8`,
      created: sql<string>`min(${tracks.createdAt})`,
      releasedAt: sql<string | null>`min(${albums.releasedAt})::text`,
    })
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .leftJoin(albums, eq(albums.id, tracks.albumId))
    .where(ready)
    .groupBy(albumIdOf, tracks.artistId)
    .having(having)
    .orderBy(orders[args.type], albumIdOf)
    .limit(args.size)
    .offset(args.offset);
}

type ListRow = AlbumRow & { artistId: string; artistName: string };

export const albumListMethods = {
  getAlbumList2: method({
    args: listArgs,
    reads: (deps, args, userId) =>
      EMPTY.has(args.type) ? [] : [albumListQuery(deps.db, args, userId)],
    answer: ({ args, caller, results }) => {
      // `recent` and `starred` read the claimed listener's rows: the caller's only if it is one.
      const mine = !OWN.has(args.type) || caller.kind === "user";
      const rows = mine ? ((results[0] ?? []) as ListRow[]) : [];
      return {
        albumList2: {
          album: rows.map((row) => albumNode(row, { id: row.artistId, name: row.artistName })),
        },
      };
    },
  }),
  getRandomSongs: method({
    args: (params) => ({ size: sizeOf(params, 10), genre: params.get("genre") }),
    reads: (deps, args) =>
      args.genre
        ? []
        : [
            deps.db
              .select(SONG_COLUMNS)
              .from(tracks)
              .innerJoin(artists, eq(artists.id, tracks.artistId))
              .where(and(ready))
              .orderBy(sql`random()`)
              .limit(args.size),
          ],
    // No genres in our model: a genre asked finds nothing.
    answer: ({ results }) => ({
      randomSongs: { song: ((results[0] ?? []) as SongRow[]).map(songNode) },
    }),
  }),
};
