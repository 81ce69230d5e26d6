import { likeArtist, unlikeArtist } from "../artists/social/service.ts";
import { recordListen } from "../history/service.ts";
import { likeTrack, unlikeTrack } from "../tracks/likes/service.ts";
import { boolArg, isUuid, required } from "./args.ts";
import type { Caller } from "./credentials.ts";
import { missingParameter, notFound, SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { method } from "./method.ts";

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
}

/**
 * What a star names: songs (`id`) and artists (`artistId`). Albums have no like in our model
 * yet: `albumId` answers 0 before anything is written.
 */
function stars(params: URLSearchParams): Stars {
  if (params.getAll("albumId").length > 0) {
    throw new SubsonicError(SUBSONIC_ERRORS.generic, "Albums cannot be starred yet.");
  }
  const found = { songs: ids(params, "id", "Song"), artists: ids(params, "artistId", "Artist") };
  if (found.songs.length + found.artists.length === 0) throw missingParameter("id");
  return found;
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
      return {};
    },
  });

export const annotationMethods = {
  star: starMethod(true),
  unstar: starMethod(false),
  scrobble: method({
    args: (params) => {
      required(params, "id");
      return { ids: ids(params, "id", "Song"), submission: boolArg(params, "submission", true) };
    },
    answer: async ({ deps, args, caller }) => {
      // A play (`submission=true`) of a listener is a listening-history entry, as in the REST
      // API: one round trip per song, after the verdict. "Now playing" (`false`) is not kept
      // yet; an artist has no listening history, so its scrobbles keep nothing.
      if (args.submission && caller.kind === "user") {
        const principal = listener(caller);
        for (const id of args.ids) await recordListen({ db: deps.db, principal }, id);
      }
      return {};
    },
  }),
};
