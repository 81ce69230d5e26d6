import { playlists, playlistTracks, tracks } from "@edge-music/db";
import { and, count, eq, inArray, max, sql } from "drizzle-orm";
import { ConflictError, NotFoundError } from "../../../errors/app-error.ts";
import type { Principal } from "../../../security/principal.ts";
import { isReady, loadPlaylist, type Tx } from "../queries.ts";
import { PLAYLIST_TRACKS_MAX, type PlaylistOut } from "../schema.ts";
import { assertOwnPlaylist, type PlaylistDeps } from "../service.ts";

/**
 * POST /playlists/:id/tracks: appends the tracks in the given order after the current last one,
 * skipping those already in the playlist. All or nothing: one unknown (or not READY) id → 404
 * and nothing is added. The playlist row is locked for the whole transaction, so concurrent
 * appends queue and never take the same positions.
 */
export async function addTracks(
  ctx: PlaylistDeps,
  id: string,
  trackIds: string[],
): Promise<PlaylistOut> {
  const principal = ctx.principal;
  return await ctx.db.transaction(async (tx) => {
    await assertOwnPlaylist(tx, principal, id, { lock: true });
    await assertPlayable(tx, trackIds);
    const [state] = await tx
      .select({ entries: count(), last: max(playlistTracks.position) })
      .from(playlistTracks)
      .where(eq(playlistTracks.playlistId, id));
    const present = await tx
      .select({ trackId: playlistTracks.trackId })
      .from(playlistTracks)
      .where(and(eq(playlistTracks.playlistId, id), inArray(playlistTracks.trackId, trackIds)));
    const presentIds = new Set(present.map((row) => row.trackId));
    const fresh = trackIds.filter((trackId) => !presentIds.has(trackId));
    if (fresh.length > 0) {
      if ((state?.entries ?? 0) + fresh.length > PLAYLIST_TRACKS_MAX) {
        throw new ConflictError(`A playlist holds at most ${PLAYLIST_TRACKS_MAX} tracks.`);
      }
      const first = (state?.last ?? -1) + 1;
      await tx
        .insert(playlistTracks)
        .values(fresh.map((trackId, i) => ({ playlistId: id, trackId, position: first + i })));
      await touch(tx, principal, id);
    }
    return await reload(tx, id);
  });
}

/** DELETE /playlists/:id/tracks/:trackId: a track that is not in the playlist → 404. */
export async function removeTrack(
  ctx: PlaylistDeps,
  id: string,
  trackId: string,
): Promise<PlaylistOut> {
  const principal = ctx.principal;
  return await ctx.db.transaction(async (tx) => {
    await assertOwnPlaylist(tx, principal, id, { lock: true });
    // Positions keep their gap: order is all they mean, and appends start after the maximum.
    const removed = await tx
      .delete(playlistTracks)
      .where(and(eq(playlistTracks.playlistId, id), eq(playlistTracks.trackId, trackId)))
      .returning({ trackId: playlistTracks.trackId });
    if (removed.length === 0) throw new NotFoundError("This track is not in the playlist.");
    await touch(tx, principal, id);
    return await reload(tx, id);
  });
}

/**
 * Every id must name a READY track. KEY SHARE locks keep those tracks from being deleted before
 * the new entries reference them (which would fail the foreign key with a 500).
 */
async function assertPlayable(tx: Tx, trackIds: string[]) {
  const found = await tx
    .select({ id: tracks.id })
    .from(tracks)
    .where(and(inArray(tracks.id, trackIds), isReady))
    .for("key share");
  const foundIds = new Set(found.map((row) => row.id));
  const missing = trackIds.filter((trackId) => !foundIds.has(trackId));
  if (missing.length > 0) {
    throw new NotFoundError(`No playable track with the id ${missing.join(", ")}.`, {
      extensions: { missingTrackIds: missing },
    });
  }
}

const touch = (tx: Tx, principal: Principal, id: string) =>
  tx
    .update(playlists)
    .set({ updatedAt: sql`now()` })
    .where(and(eq(playlists.id, id), eq(playlists.userId, principal.id)));

async function reload(tx: Tx, id: string): Promise<PlaylistOut> {
  const playlist = await loadPlaylist(tx, id);
  if (!playlist) throw new NotFoundError("No such playlist.");
  return playlist;
}
