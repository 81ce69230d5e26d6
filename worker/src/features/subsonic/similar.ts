import { artists, type HttpDatabase, listeningHistory, tracks } from "@edge-music/db";
import { and, countDistinct, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import { intArg, isUuid, required } from "./args.ts";
import { method } from "./method.ts";
import { songNode } from "./model.ts";
import { artistName, ready, SONG_COLUMNS, type SongRow } from "./queries.ts";

/** How many of an artist's latest listens say who its listeners are: a bound on the work. */
const LISTENS_READ = 2000;
const MAX_COUNT = 500;

const countOf = (params: URLSearchParams, fallback: number) =>
  Math.min(Math.max(intArg(params, "count") ?? fallback, 0), MAX_COUNT);

/**
 * Songs of other artists that the listeners of this artist also played, scored by how many of
 * them did (a listener counts once however often they replay a track), then newest: the REST
 * API's "more like this" (GET /tracks/{id}/related) over all of an artist's tracks.
 */
function similarToArtistQuery(db: HttpDatabase, artistId: string, count: number) {
  const listeners = db
    .select({ userId: listeningHistory.userId })
    .from(listeningHistory)
    .innerJoin(tracks, eq(tracks.id, listeningHistory.trackId))
    .where(eq(tracks.artistId, artistId))
    .orderBy(desc(listeningHistory.listenedAt))
    .limit(LISTENS_READ);
  const co = db.$with("co").as(
    db
      .select({
        trackId: listeningHistory.trackId,
        listeners: countDistinct(listeningHistory.userId).as("listeners"),
      })
      .from(listeningHistory)
      .where(inArray(listeningHistory.userId, listeners))
      .groupBy(listeningHistory.trackId),
  );
  return db
    .with(co)
    .select(SONG_COLUMNS)
    .from(co)
    .innerJoin(tracks, eq(tracks.id, co.trackId))
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(and(ready, ne(tracks.artistId, artistId)))
    .orderBy(desc(co.listeners), desc(tracks.createdAt), desc(tracks.id))
    .limit(count);
}

/**
 * An artist's songs (by the name shown, or the username; any case) most listened to: by how many
 * listeners played each (history), then newest.
 */
function topSongsQuery(db: HttpDatabase, name: string, count: number) {
  const listeners = sql<number>`(select count(distinct ${listeningHistory.userId}) from ${listeningHistory} where ${listeningHistory.trackId} = ${tracks.id})`;
  return db
    .select(SONG_COLUMNS)
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(
      and(
        ready,
        or(
          sql`lower(${artistName}) = lower(${name})`,
          sql`lower(${artists.username}) = lower(${name})`,
        ),
      ),
    )
    .orderBy(desc(listeners), desc(tracks.createdAt), desc(tracks.id))
    .limit(count);
}

/**
 * Answers of co-listening (issue 32's "more like this"): similar songs to an artist, and an
 * artist's top songs. Empty while nobody has listened (the listening history is the signal; a
 * scrobble with submission=true adds to it). An unknown artist is an empty list, as for one
 * nobody listened to.
 */
export const similarMethods = {
  getSimilarSongs2: method({
    args: (params) => ({ id: required(params, "id"), count: countOf(params, 50) }),
    reads: (deps, args) =>
      isUuid(args.id) && args.count > 0
        ? [similarToArtistQuery(deps.db, args.id.toLowerCase(), args.count)]
        : [],
    answer: ({ results }) => ({
      similarSongs2: { song: ((results[0] ?? []) as SongRow[]).map(songNode) },
    }),
  }),
  getTopSongs: method({
    args: (params) => ({ artist: required(params, "artist"), count: countOf(params, 50) }),
    reads: (deps, args) =>
      args.count > 0 ? [topSongsQuery(deps.db, args.artist, args.count)] : [],
    answer: ({ results }) => ({
      topSongs: { song: ((results[0] ?? []) as SongRow[]).map(songNode) },
    }),
  }),
};
