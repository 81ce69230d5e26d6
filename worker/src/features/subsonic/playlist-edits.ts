import { allFound, type HttpDatabase, playlists, playlistTracks, tracks } from "@edge-music/db";
import { sql } from "drizzle-orm";
import { discardImages } from "../../images/replace.ts";
import type { Principal } from "../../security/principal.ts";
import {
  deletePlaylistRow,
  insertPlaylist,
  ownerRow,
  updatePlaylistRow,
} from "../playlists/queries.ts";
import {
  CreatePlaylistBody,
  PLAYLIST_TRACKS_MAX,
  TRACK_IDS_MAX,
  UpdatePlaylistJson,
} from "../playlists/schema.ts";
import { appendAndTouch, changeAndTouch, ownedBy, roomFor } from "../playlists/tracks/queries.ts";
import { listedTrackIds } from "../sharing/queries.ts";
import { boolArg, isUuid, uuidArg } from "./args.ts";
import { CHECK_FAILED, check } from "./checks.ts";
import type { Caller } from "./credentials.ts";
import { missingParameter, notFound, SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { method } from "./method.ts";
import { songNode } from "./model.ts";
import { type PlaylistRow, playlistNode, playlistQuery, playlistSongsQuery } from "./playlists.ts";
import { ready, type SongRow } from "./queries.ts";

/**
 * Playlists changed from an app are the listener's playlists in the REST API, written by the
 * playlists feature's statements (its rules and limits): each change is one batch, in the call's
 * round trip (ADR 0029), led by checks that abort it whole: the playlist exists (70), is the
 * caller's (50), every song named is listed (70), every index names an entry (70), there is room
 * (0). The playlist's row is locked first, so concurrent changes of one playlist queue.
 */
function listenerOf(caller: Caller): Principal {
  if (caller.kind !== "user") {
    throw new SubsonicError(
      SUBSONIC_ERRORS.notAuthorized,
      "User is not authorized for the given operation: playlists are a listener's.",
    );
  }
  return { kind: caller.kind, id: caller.id, sessionId: "" };
}

/** The lock and the checks that a change of playlist `id` by `principal` starts with. */
function ownChange(db: HttpDatabase, id: string, principal: Principal) {
  const row = sql`select from ${playlists} where ${playlists.id} = ${id}`;
  return [
    ownerRow(db, id, { lock: true }),
    check(db, sql`exists (${row})`, CHECK_FAILED.notFound, "Playlist was not found."),
    check(
      db,
      sql`exists (${row} and ${playlists.userId} = ${principal.id})`,
      CHECK_FAILED.notAuthorized,
      "User is not authorized for the given operation: not your playlist.",
    ),
  ];
}

/** The checks and the statement that append `songs` to playlist `id` (after any removal). */
function appendSongs(db: HttpDatabase, id: string, principal: Principal, songs: string[]) {
  if (songs.length === 0) return [];
  return [
    check(db, allFound(songs, listedTrackIds), CHECK_FAILED.notFound, "Song was not found."),
    check(
      db,
      roomFor(id, songs),
      CHECK_FAILED.refused,
      `A playlist holds at most ${PLAYLIST_TRACKS_MAX} songs.`,
    ),
    appendAndTouch(db, id, principal, songs),
  ];
}

/**
 * The playlist's entries at `indexes`, as the app sees them (`getPlaylist`: listed songs in
 * order), removed: the check that each index names one, then the delete.
 */
function removeAt(db: HttpDatabase, id: string, principal: Principal, indexes: number[]) {
  if (indexes.length === 0) return [];
  const wanted = sql`${sql.param([...new Set(indexes)])}::int[]`;
  const seen = sql`indexed as (
    select ${playlistTracks.trackId} as track_id,
      row_number() over (order by ${playlistTracks.position}, ${playlistTracks.trackId}) - 1 as idx
    from ${playlistTracks} join ${tracks} on ${tracks.id} = ${playlistTracks.trackId}
    where ${playlistTracks.playlistId} = ${id} and ${ready}
  )`;
  return [
    check(
      db,
      sql`(with ${seen} select count(*) from indexed where idx = any(${wanted})) = cardinality(${wanted})`,
      CHECK_FAILED.notFound,
      "Song index was not found.",
    ),
    changeAndTouch(
      db,
      id,
      sql`delete from ${playlistTracks}
        where ${playlistTracks.playlistId} = ${id} and ${ownedBy(id, principal)}
          and ${playlistTracks.trackId} in (select track_id from indexed where idx = any(${wanted}))`,
      sql`${seen},`,
    ),
  ];
}

/** The song ids a call names, at most TRACK_IDS_MAX (what one append takes). */
function songIds(params: URLSearchParams, name: string): string[] {
  const ids = params.getAll(name);
  if (!ids.every(isUuid)) throw notFound("Song");
  if (ids.length > TRACK_IDS_MAX) {
    throw new SubsonicError(SUBSONIC_ERRORS.generic, `At most ${TRACK_IDS_MAX} songs per call.`);
  }
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/** A field our rules refuse (an empty or too long name…), as the protocol says it. */
function invalid(error: { issues: Array<{ path: PropertyKey[]; message: string }> }): never {
  const [issue] = error.issues;
  throw new SubsonicError(
    SUBSONIC_ERRORS.generic,
    `${String(issue?.path[0] ?? "value")} ${issue?.message ?? "is invalid"}.`,
  );
}

export const playlistEditMethods = {
  /**
   * A new playlist with its songs, or (with `playlistId`) another list of songs for one of the
   * caller's, renamed when `name` is given (OpenSubsonic). Answers the playlist with its songs.
   */
  createPlaylist: method({
    args: (params) => {
      const name = params.get("name");
      const replace = params.get("playlistId");
      // A new playlist needs a name; replacing one's songs may rename it (OpenSubsonic).
      if (name === null && replace === null) throw missingParameter("name");
      const body = CreatePlaylistBody.safeParse({ title: name ?? "unused" });
      if (!body.success) invalid(body.error);
      return {
        input: body.data,
        rename: name !== null,
        replace: replace === null ? null : uuidArg(params, "playlistId", "Playlist"),
        songs: songIds(params, "songId"),
        // Named here, so that the batch's later statements can name it too.
        id: crypto.randomUUID(),
      };
    },
    writes: (deps, args, caller) => {
      const principal = listenerOf(caller);
      const { db } = deps;
      const id = args.replace ?? args.id;
      const start = args.replace
        ? [
            ...ownChange(db, id, principal),
            ...(args.rename
              ? [updatePlaylistRow(db, id, principal.id, { title: args.input.title })]
              : []),
            changeAndTouch(
              db,
              id,
              sql`delete from ${playlistTracks} where ${playlistTracks.playlistId} = ${id} and ${ownedBy(id, principal)}`,
            ),
          ]
        : [insertPlaylist(db, principal.id, args.input, id)];
      return [
        ...start,
        ...appendSongs(db, id, principal, args.songs),
        playlistQuery(db, id),
        playlistSongsQuery(db, id),
      ];
    },
    answer: ({ written }) => {
      const [row] = written.at(-2) as PlaylistRow[];
      if (!row) throw notFound("Playlist");
      const songs = written.at(-1) as SongRow[];
      return { playlist: { ...playlistNode(row), entry: songs.map(songNode) } };
    },
  }),
  updatePlaylist: method({
    args: (params) => {
      const id = uuidArg(params, "playlistId", "Playlist");
      const patch = UpdatePlaylistJson.safeParse({
        title: params.get("name") ?? undefined,
        description: params.get("comment") ?? undefined,
        // As boolArg reads it: apps send `True` too (Python's str of a bool).
        isPublic: params.has("public") ? boolArg(params, "public", false) : undefined,
      });
      if (!patch.success) invalid(patch.error);
      const remove = params.getAll("songIndexToRemove").map((value) => {
        if (!/^\d{1,6}$/.test(value)) {
          throw new SubsonicError(SUBSONIC_ERRORS.generic, "songIndexToRemove is not an index.");
        }
        return Number(value);
      });
      if (remove.length > TRACK_IDS_MAX) {
        throw new SubsonicError(
          SUBSONIC_ERRORS.generic,
          `At most ${TRACK_IDS_MAX} removals per call.`,
        );
      }
      const fields = Object.values(patch.data).some((value) => value !== undefined);
      return { id, patch: fields ? patch.data : null, add: songIds(params, "songIdToAdd"), remove };
    },
    writes: (deps, args, caller) => {
      const principal = listenerOf(caller);
      const { db } = deps;
      return [
        ...ownChange(db, args.id, principal),
        ...(args.patch ? [updatePlaylistRow(db, args.id, principal.id, args.patch)] : []),
        ...removeAt(db, args.id, principal, args.remove),
        ...appendSongs(db, args.id, principal, args.add),
      ];
    },
    answer: () => ({}),
  }),
  deletePlaylist: method({
    args: (params) => uuidArg(params, "id", "Playlist"),
    writes: (deps, id, caller) => {
      const principal = listenerOf(caller);
      return [...ownChange(deps.db, id, principal), deletePlaylistRow(deps.db, id, principal.id)];
    },
    // Its cover, no longer referenced, goes after the answer's round trip (as in the REST API).
    answer: async ({ deps, args: id, written }) => {
      const [deleted] = written.at(-1) as Array<{ cover: string | null }>;
      await discardImages(deps, [deleted?.cover], { playlistId: id });
      return {};
    },
  }),
};
