import { albumLikes, albums, trackRatings } from "@edge-music/db";
import { and, eq, sql } from "drizzle-orm";
import { likeArtist, unlikeArtist } from "../artists/social/service.ts";
import { recordListen } from "../history/service.ts";
import { userListener } from "../plays/listener-key.ts";
import { recordPlays } from "../plays/record.ts";
import { likeTrack, unlikeTrack } from "../tracks/likes/service.ts";
import { boolArg, intArg, isUuid, required, uuidArg } from "./args.ts";
import type { Caller } from "./credentials.ts";
import { missingParameter, notFound, SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { method, type SubsonicDeps } from "./method.ts";
import { publicAlbum, SINGLE_PREFIX, songQuery } from "./queries.ts";

/**
 * How many items one star, unstar or scrobble may name: each is a write of its own (a round
 * trip), so a call naming thousands would hold the database for as long.
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

/**
 * An album's star is its like (album_likes, ADR 0025's migration): written only for a public
 * album, one statement; an unknown or hidden album answers 70. No REST route reads it yet.
 */
async function starAlbum(deps: SubsonicDeps, userId: string, albumId: string, on: boolean) {
  if (!on) {
    await deps.db
      .delete(albumLikes)
      .where(and(eq(albumLikes.userId, userId), eq(albumLikes.albumId, albumId)));
    return;
  }
  const result = await deps.db.execute(sql`with album as (
      select ${albums.id} as id from ${albums} where ${albums.id} = ${albumId} and ${publicAlbum}
    ), liked as (
      insert into ${albumLikes} (user_id, album_id) select ${userId}, id from album
      on conflict do nothing
    ) select count(*)::int as found from album`);
  const [row] = (result as unknown as { rows: Array<{ found: number }> }).rows;
  if (!row?.found) throw notFound("Album");
}

/** Stars are a listener's likes; an artist account has none (50). */
function listener(caller: Caller) {
  if (caller.kind !== "user") {
    throw new SubsonicError(
      SUBSONIC_ERRORS.notAuthorized,
      "User is not authorized for the given operation: stars and plays are a listener's.",
    );
  }
  return { kind: caller.kind, id: caller.id, sessionId: "" };
}

/**
 * A star is the REST API's like (a song: the track like; an artist: the artist like), written
 * through the same services after the credential's verdict: one round trip per item.
 */
const starMethod = (on: boolean) =>
  method({
    args: stars,
    answer: async ({ deps, args, caller }) => {
      const ctx = { db: deps.db, principal: listener(caller) };
      for (const id of args.songs) await (on ? likeTrack : unlikeTrack)(ctx, id);
      for (const id of args.artists) await (on ? likeArtist : unlikeArtist)(ctx, id);
      for (const id of args.albums) await starAlbum(deps, ctx.principal.id, id, on);
      return {};
    },
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
    reads: (deps, args) => [songQuery(deps.db, args.id)],
    answer: async ({ deps, args, caller, results }) => {
      const { id: userId } = listener(caller);
      if ((results[0] as unknown[]).length === 0) throw notFound("Song");
      const mine = and(eq(trackRatings.userId, userId), eq(trackRatings.trackId, args.id));
      if (args.rating === 0) {
        await deps.db.delete(trackRatings).where(mine);
      } else {
        await deps.db
          .insert(trackRatings)
          .values({ userId, trackId: args.id, rating: args.rating })
          .onConflictDoUpdate({
            target: [trackRatings.userId, trackRatings.trackId],
            set: { rating: args.rating, updatedAt: sql`now()` },
          });
      }
      return {};
    },
  }),
  scrobble: method({
    args: (params) => {
      required(params, "id");
      return { ids: ids(params, "id", "Song"), submission: boolArg(params, "submission", true) };
    },
    answer: async ({ deps, args, caller, call }) => {
      // A play (`submission=true`) of a listener is a listening-history entry, as in the REST
      // API: one round trip per song, after the verdict, and a play report for the counts
      // (ADR 0028: queued after the answer, as POST /history does). "Now playing" (`false`) is
      // not kept yet; an artist has no listening history, so its scrobbles keep nothing.
      if (args.submission && caller.kind === "user") {
        const principal = listener(caller);
        for (const id of args.ids) await recordListen({ db: deps.db, principal }, id);
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
