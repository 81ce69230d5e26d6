import { playlistTracks, tracks } from "@edge-music/db";
import { and, asc, eq } from "drizzle-orm";
import { CreatePlaylistBody, TRACK_IDS_MAX, UpdatePlaylistJson } from "../playlists/schema.ts";
import { createPlaylist, deletePlaylist, updatePlaylist } from "../playlists/service.ts";
import { addTracks, removeTrack } from "../playlists/tracks/service.ts";
import { isUuid, uuidArg } from "./args.ts";
import type { Caller } from "./credentials.ts";
import { missingParameter, notFound, SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { method, type SubsonicDeps } from "./method.ts";
import { ready } from "./queries.ts";

/**
 * Playlists changed from an app are the listener's playlists in the REST API: every change goes
 * through the playlists feature's services (its rules, limits and owner checks; another's
 * playlist answers 50 or 70), after the credential's verdict, one round trip per service call.
 */
function playlistDeps(deps: SubsonicDeps, caller: Caller) {
  if (caller.kind !== "user") {
    throw new SubsonicError(
      SUBSONIC_ERRORS.notAuthorized,
      "User is not authorized for the given operation: playlists are a listener's.",
    );
  }
  const principal = { kind: caller.kind, id: caller.id, sessionId: "" };
  return { db: deps.db, storage: deps.storage, log: deps.log, principal, viewer: principal };
}

/**
 * `createPlaylist` with `playlistId`: the playlist's songs are replaced (and its name, when one
 * is given). The owner check is the playlists service's (`updatePlaylist`: another's answers 50,
 * an unknown one 70); its entries are then removed in one statement, and the new songs appended
 * by the caller. Three round trips after the credential's: not one batch, since the services
 * judge ownership by what they read.
 */
async function replaceSongs(ctx: ReturnType<typeof playlistDeps>, id: string, title?: string) {
  const playlist = await updatePlaylist(ctx, id, { title });
  await ctx.db.delete(playlistTracks).where(eq(playlistTracks.playlistId, id));
  return { ...playlist, tracks: [] };
}

/** The song ids a call names, at most TRACK_IDS_MAX (what one append takes). */
function songIds(params: URLSearchParams, name: string): string[] {
  const ids = params.getAll(name);
  if (!ids.every(isUuid)) throw notFound("Song");
  if (ids.length > TRACK_IDS_MAX) {
    throw new SubsonicError(SUBSONIC_ERRORS.generic, `At most ${TRACK_IDS_MAX} songs per call.`);
  }
  return ids.map((id) => id.toLowerCase());
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
      };
    },
    answer: async ({ deps, args, caller }) => {
      const ctx = playlistDeps(deps, caller);
      let playlist = args.replace
        ? await replaceSongs(ctx, args.replace, args.rename ? args.input.title : undefined)
        : await createPlaylist(ctx, args.input);
      if (args.songs.length > 0) playlist = await addTracks(ctx, playlist.id, args.songs);
      const duration = playlist.tracks.reduce((sum, track) => sum + (track.duration ?? 0), 0);
      return {
        playlist: {
          id: playlist.id,
          name: playlist.title,
          owner: caller.username,
          public: playlist.isPublic,
          songCount: playlist.tracks.length,
          duration: Math.round(duration),
          created: playlist.createdAt,
          changed: playlist.updatedAt,
        },
      };
    },
  }),
  updatePlaylist: method({
    args: (params) => {
      const id = uuidArg(params, "playlistId", "Playlist");
      const patch = UpdatePlaylistJson.safeParse({
        title: params.get("name") ?? undefined,
        description: params.get("comment") ?? undefined,
        isPublic: params.has("public") ? params.get("public") === "true" : undefined,
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
    // The entries as the app sees them (READY, in order): what its indexes point at.
    reads: (deps, args) =>
      args.remove.length === 0
        ? []
        : [
            deps.db
              .select({ id: playlistTracks.trackId })
              .from(playlistTracks)
              .innerJoin(tracks, eq(tracks.id, playlistTracks.trackId))
              .where(and(eq(playlistTracks.playlistId, args.id), ready))
              .orderBy(asc(playlistTracks.position)),
          ],
    answer: async ({ deps, args, caller, results }) => {
      const ctx = playlistDeps(deps, caller);
      if (args.patch) await updatePlaylist(ctx, args.id, args.patch);
      const entries = (results[0] ?? []) as Array<{ id: string }>;
      for (const index of [...new Set(args.remove)]) {
        const entry = entries[index];
        if (!entry) throw notFound("Song index");
        await removeTrack(ctx, args.id, entry.id);
      }
      if (args.add.length > 0) await addTracks(ctx, args.id, args.add);
      return {};
    },
  }),
  deletePlaylist: method({
    args: (params) => uuidArg(params, "id", "Playlist"),
    answer: async ({ deps, args: id, caller }) => {
      await deletePlaylist(playlistDeps(deps, caller), id);
      return {};
    },
  }),
};
