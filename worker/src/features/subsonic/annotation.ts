import {
  albumLikes,
  albums,
  allFound,
  artistLikes,
  artists,
  nowPlaying,
  trackLikes,
  trackRatings,
  tracks,
  uuids,
} from "@edge-music/db";
import { and, eq, sql } from "drizzle-orm";
import { listensStatement } from "../history/queries.ts";
import { userListener } from "../plays/listener-key.ts";
import { recordPlays } from "../plays/record.ts";
import { listedTrackIds } from "../sharing/queries.ts";
import { boolArg, intArg, isUuid, required, uuidArg } from "./args.ts";
import { CHECK_FAILED, check } from "./checks.ts";
import type { Caller } from "./credentials.ts";
import { missingParameter, notFound, SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { method, type SubsonicDeps } from "./method.ts";
import { publicAlbum, ready, SINGLE_PREFIX } from "./queries.ts";

/**
 * How many items one star, unstar or scrobble may name: they are written in one statement per
 * kind, but a call naming thousands would still hold the database for as long.
 */
export const MAX_ITEMS = 50;

/** The ids of one kind a call names (`id=…&id=…`); a malformed one names nothing (70). */
function ids(params: URLSearchParams, name: string, what: string): string[] {
  const values = params.getAll(name);
  if (values.length > MAX_ITEMS) {
    throw new SubsonicError(SUBSONIC_ERRORS.generic, `At most ${MAX_ITEMS} ids per call.`);
  }
  if (!values.every(isUuid)) throw notFound(what);
  return values.map((value) => value.toLowerCase());
}

interface Stars {
  songs: string[];
  artists: string[];
  albums: string[];
}

/**
 * What a star names: songs (`id`), albums (`albumId`) and artists (`artistId`). A single's album
 * (`single-<track id>`) is its one track: a star on it is the track's like.
 */
function stars(params: URLSearchParams): Stars {
  const albumIds = params.getAll("albumId").map((id) => id.toLowerCase());
  const singles = albumIds.filter((id) => id.startsWith(SINGLE_PREFIX));
  const albumParams = new URLSearchParams();
  for (const id of albumIds) if (!id.startsWith(SINGLE_PREFIX)) albumParams.append("albumId", id);
  const songParams = new URLSearchParams();
  for (const id of [...params.getAll("id"), ...singles.map((s) => s.slice(SINGLE_PREFIX.length))]) {
    songParams.append("id", id);
  }
  const found = {
    songs: ids(songParams, "id", "Song"),
    albums: ids(albumParams, "albumId", "Album"),
    artists: ids(params, "artistId", "Artist"),
  };
  const total = found.songs.length + found.albums.length + found.artists.length;
  if (total === 0) throw missingParameter("id");
  if (total > MAX_ITEMS) {
    throw new SubsonicError(SUBSONIC_ERRORS.generic, `At most ${MAX_ITEMS} ids per call.`);
  }
  return found;
}

/** Stars are a listener's likes; an artist account has none (50). */
function listener(caller: Caller): string {
  if (caller.kind !== "user") {
    throw new SubsonicError(
      SUBSONIC_ERRORS.notAuthorized,
      "User is not authorized for the given operation: stars and plays are a listener's.",
    );
  }
  return caller.id;
}

/** What a star may name, by kind: the rows a listener may like, as the REST API's likes. */
const STARRABLE = {
  Song: {
    table: trackLikes,
    column: "track_id",
    rows: listedTrackIds,
  },
  Album: {
    table: albumLikes,
    column: "album_id",
    rows: sql`select ${albums.id} from ${albums} where ${publicAlbum}`,
  },
  Artist: {
    table: artistLikes,
    column: "artist_id",
    rows: sql`select ${artists.id} from ${artists}`,
  },
} as const;

/**
 * A star is the REST API's like (a song: the track like; an album: its like, ADR 0025's
 * migration; an artist: the artist like); unstar removes it. One statement per kind named, after
 * checks that every id names something a listener may like (70 otherwise, nothing written):
 * all in the call's one batch.
 */
function starStatements(deps: SubsonicDeps, userId: string, named: Stars, on: boolean) {
  const kinds = [
    ["Song", named.songs],
    ["Album", named.albums],
    ["Artist", named.artists],
  ] as const;
  const present = kinds.filter(([, ids]) => ids.length > 0);
  const checks = present.map(([what, ids]) =>
    check(
      deps.db,
      allFound(ids, STARRABLE[what].rows),
      CHECK_FAILED.notFound,
      `${what} was not found.`,
    ),
  );
  const writes = present.map(([what, ids]) => {
    const { table, column } = STARRABLE[what];
    const key = sql.identifier(column);
    return deps.db.execute(
      on
        ? sql`insert into ${table} (user_id, ${key}) select ${userId}, id from (${STARRABLE[what].rows}) as starrable(id) where id = any(${uuids(ids)}) on conflict do nothing`
        : sql`delete from ${table} where user_id = ${userId} and ${key} = any(${uuids(ids)})`,
    );
  });
  return [...checks, ...writes];
}

const starMethod = (on: boolean) =>
  method({
    args: stars,
    writes: (deps, args, caller) => starStatements(deps, listener(caller), args, on),
    answer: () => ({}),
  });

export const annotationMethods = {
  star: starMethod(true),
  unstar: starMethod(false),
  /**
   * A listener's rating of a song, 1–5; 0 removes it (track_ratings). The song must be listed
   * (read in the call's batch: 70 otherwise); the write comes after the verdict.
   */
  setRating: method({
    args: (params) => {
      const id = uuidArg(params, "id", "Song");
      required(params, "rating");
      const rating = intArg(params, "rating");
      if (rating === undefined || rating < 0 || rating > 5) {
        throw new SubsonicError(SUBSONIC_ERRORS.generic, "rating is a whole number from 0 to 5.");
      }
      return { id, rating };
    },
    writes: (deps, args, caller) => {
      const userId = listener(caller);
      const song = sql`select ${tracks.id} from ${tracks} where ${ready}`;
      const mine = and(eq(trackRatings.userId, userId), eq(trackRatings.trackId, args.id));
      return [
        check(deps.db, allFound([args.id], song), CHECK_FAILED.notFound, "Song was not found."),
        args.rating === 0
          ? deps.db.delete(trackRatings).where(mine)
          : deps.db
              .insert(trackRatings)
              .values({ userId, trackId: args.id, rating: args.rating })
              .onConflictDoUpdate({
                target: [trackRatings.userId, trackRatings.trackId],
                set: { rating: args.rating, updatedAt: sql`now()` },
              }),
      ];
    },
    answer: () => ({}),
  }),
  scrobble: method({
    args: (params) => {
      required(params, "id");
      return {
        ids: ids(params, "id", "Song"),
        submission: boolArg(params, "submission", true),
        client: (params.get("c") ?? "").slice(0, 64),
      };
    },
    // A play (`submission=true`) of a listener is a listening-history entry, as in the REST API
    // (`POST /history`): every song must be listed (70 otherwise, nothing kept), one statement
    // for all of them in the call's batch; and a play report for the counts (ADR 0028: queued
    // after the answer). "Now playing" (`false`) is the listener's `now_playing` row, which
    // `getNowPlaying` shows them. An artist has no listening history: its scrobbles keep nothing.
    writes: (deps, args, caller) => {
      if (caller.kind !== "user") return [];
      const found = check(
        deps.db,
        allFound(args.ids, listedTrackIds),
        CHECK_FAILED.notFound,
        "Song was not found.",
      );
      if (args.submission) return [found, listensStatement(deps.db, caller.id, args.ids)];
      // "Now playing": the last song named, replacing what this listener played before.
      const now = { trackId: args.ids.at(-1) ?? "", client: args.client, startedAt: sql`now()` };
      return [
        found,
        deps.db
          .insert(nowPlaying)
          .values({ userId: caller.id, ...now })
          .onConflictDoUpdate({ target: nowPlaying.userId, set: now }),
      ];
    },
    answer: ({ deps, args, caller, call }) => {
      if (args.submission && caller.kind === "user") {
        const listenerKey = userListener(caller.id);
        recordPlays(
          deps,
          args.ids.map((trackId) => ({
            trackId,
            listener: listenerKey,
            country: call.country,
            at: deps.now,
          })),
        );
      }
      return {};
    },
  }),
};
