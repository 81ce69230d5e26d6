import { albums, artists, type HttpDatabase, tracks } from "@edge-music/db";
import { eq, type SQL, sql } from "drizzle-orm";
import type { SearchTerms } from "../search/matching.ts";
import { searchTerms } from "../search/matching.ts";
import { SEARCHABLE, type Searchable, searchStatement } from "../search/queries.ts";
import { MAX_QUERY_LENGTH } from "../search/schema.ts";
import { intArg } from "./args.ts";
import {
  ALBUM_COLUMNS,
  ARTIST_COLUMNS,
  catalogueAlbums,
  catalogueArtists,
  catalogueSongs,
  type Kind,
  listedAlbum,
  listedArtist,
  type Page,
  rememberSeek,
  seekAfter,
  sweeperOf,
} from "./catalogue-pages.ts";
import { SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { method } from "./method.ts";
import { type AlbumRow, albumNode, artistNode, songNode } from "./model.ts";
import { ready, SONG_COLUMNS, type SongRow } from "./queries.ts";

/** The most of one kind a page holds (Symfonium asks 500 at a time). */
const MAX_COUNT = 500;
/** How deep a text search pages: its ranking reads offset + count rows. */
const MAX_SEARCH_DEPTH = 500;

interface SearchArgs {
  terms: SearchTerms;
  pages: Record<Kind, Page>;
  /** Where each kind's page starts when it is a seek (an empty query), else null. */
  after: Record<Kind, string | null>;
  /** Whose sweep this page continues (`sweeperOf`). */
  sweeper: string;
}

const KINDS: Kind[] = ["artist", "album", "song"];

/**
 * The text searched. An empty query lists everything: apps send `""` (Symfonium, two quote
 * marks as the text) or nothing at all; `*` as some apps do.
 */
export function queryText(raw: string | null): string {
  const text = (raw ?? "").trim();
  return text === '""' || text === "''" || text === "*" ? "" : text;
}

function searchArgs(params: URLSearchParams, now: Date): SearchArgs {
  const text = queryText(params.get("query"));
  if (text.length > MAX_QUERY_LENGTH) {
    throw new SubsonicError(SUBSONIC_ERRORS.generic, "The query is too long.");
  }
  const pageOf = (kind: Kind): Page => ({
    count: Math.min(Math.max(intArg(params, `${kind}Count`) ?? 20, 0), MAX_COUNT),
    offset: Math.max(intArg(params, `${kind}Offset`) ?? 0, 0),
  });
  const pages = { artist: pageOf("artist"), album: pageOf("album"), song: pageOf("song") };
  const after = { artist: null, album: null, song: null } as SearchArgs["after"];
  const sweeper = sweeperOf(params);
  if (text === "") {
    for (const kind of KINDS) after[kind] = seekAfter(sweeper, kind, pages[kind].offset, now);
  }
  return { terms: searchTerms(text), pages, after, sweeper };
}

/**
 * The ids a text search found, best first, as `unnest(…) with ordinality as found(id, n)`: the
 * search feature's one statement (its tiers and ranking), restricted to what the door lists.
 */
function found(searchable: Searchable, terms: SearchTerms, page: Page): SQL {
  const depth = Math.min(page.offset + page.count, MAX_SEARCH_DEPTH);
  const ids = sql`(select array_agg(best.id) from (${searchStatement(searchable, terms, depth)}) as best)`;
  return sql`unnest((${ids})[${page.offset + 1}:${depth}]) with ordinality as found(id, n)`;
}

function textSearch(db: HttpDatabase, args: SearchArgs) {
  const { terms, pages } = args;
  const byRank = sql`found.n`;
  return {
    artist: db
      .select(ARTIST_COLUMNS)
      .from(artists)
      .innerJoin(
        found({ ...SEARCHABLE.artists, visible: listedArtist }, terms, pages.artist),
        sql`found.id = ${artists.id}`,
      )
      .orderBy(byRank),
    album: db
      .select(ALBUM_COLUMNS)
      .from(albums)
      .innerJoin(artists, eq(artists.id, albums.artistId))
      .innerJoin(
        found({ ...SEARCHABLE.albums, visible: listedAlbum }, terms, pages.album),
        sql`found.id = ${albums.id}`,
      )
      .orderBy(byRank),
    song: db
      .select(SONG_COLUMNS)
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .innerJoin(
        found({ ...SEARCHABLE.tracks, visible: ready }, terms, pages.song),
        sql`found.id = ${tracks.id}`,
      )
      .orderBy(byRank),
  };
}

type ArtistRow = { id: string; name: string; avatar: string | null; albumCount: number };
type ListedAlbum = AlbumRow & { artistId: string; artistName: string };

/**
 * `search3`: artists, albums and songs whose names match the query (the REST API's search,
 * ADR 0022), each kind paged by its own count and offset; an empty query pages through the whole
 * catalogue in a stable order (catalogue-pages.ts). One round trip: every kind asked is a
 * statement of the call's batch (a kind with count 0 is not read).
 */
export const searchMethods = {
  search3: method({
    args: (params) => searchArgs(params, new Date()),
    reads: (deps, args) => {
      const { pages, after } = args;
      const asked = (kind: Kind) => pages[kind].count > 0;
      if (args.terms.text !== "") {
        const text = textSearch(deps.db, args);
        return KINDS.filter(asked).map((kind) => text[kind]);
      }
      return [
        ...(asked("artist") ? [catalogueArtists(deps.db, pages.artist, after.artist)] : []),
        ...(asked("album") ? catalogueAlbums(deps.db, pages.album, after.album) : []),
        ...(asked("song") ? [catalogueSongs(deps.db, pages.song, after.song)] : []),
      ];
    },
    answer: ({ deps, args, results }) => {
      const rest = [...results];
      const take = <T>(kind: Kind, statements: number): T[] =>
        args.pages[kind].count > 0
          ? (rest.splice(0, statements).flat() as T[]).slice(0, args.pages[kind].count)
          : [];
      const catalogue = args.terms.text === "";
      const albumStatements = catalogue && !args.after.album?.startsWith("single-") ? 2 : 1;
      const artistRows = take<ArtistRow>("artist", 1);
      const albumRows = take<ListedAlbum>("album", albumStatements);
      const songRows = take<SongRow>("song", 1);
      if (catalogue) {
        const ends: Array<[Kind, { id: string }[]]> = [
          ["artist", artistRows],
          ["album", albumRows],
          ["song", songRows],
        ];
        for (const [kind, rows] of ends) {
          const last = rows.at(-1);
          if (last) {
            rememberSeek(
              args.sweeper,
              kind,
              args.pages[kind].offset + rows.length,
              last.id,
              deps.now,
            );
          }
        }
      }
      return {
        searchResult3: {
          artist: artistRows.map(artistNode),
          album: albumRows.map((row) => albumNode(row, { id: row.artistId, name: row.artistName })),
          song: songRows.map(songNode),
        },
      };
    },
  }),
};
