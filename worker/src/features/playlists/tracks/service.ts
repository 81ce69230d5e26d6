import { playlistTracks, tracks } from "@edge-music/db";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { ConflictError, NotFoundError } from "../../../errors/app-error.ts";
import { listedTrack } from "../../sharing/queries.ts";
import { ownerRow, playlistRow, playlistTrackRows, toPlaylist } from "../queries.ts";
import { PLAYLIST_TRACKS_MAX, type PlaylistOut } from "../schema.ts";
import { assertOwnRow, type PlaylistDeps } from "../service.ts";
import { appendAndTouch, changeAndTouch, ownedBy, reorderAndTouch } from "./queries.ts";

/**
 * POST /playlists/:id/tracks: appends the tracks in the given order after the current last one,
 * skipping those already in the playlist. All or nothing: one unknown (or not READY) id → 404
 * and nothing is added. One batch, so one round trip: the playlist row is locked first (concurrent
 * appends queue and never take the same positions), the tracks KEY SHARE-locked (not deleted
 * before the new entries reference them) and read with the playlist's entries; then one statement
 * inserts and touches the playlist only when the same conditions hold that the answer is decided
 * on here (owner, every track playable, room left); then the playlist is read back.
 */
export async function addTracks(
  ctx: Pick<PlaylistDeps, "db" | "principal">,
  id: string,
  requested: string[],
): Promise<PlaylistOut> {
  const { db, principal } = ctx;
  const trackIds = [...new Set(requested.map((trackId) => trackId.toLowerCase()))];
  const [owner, playable, state, present, , row, trackRows] = await db.batch([
    ownerRow(db, id, { lock: true }),
    db
      .select({ id: tracks.id })
      .from(tracks)
      .where(and(inArray(tracks.id, trackIds), listedTrack))
      .for("key share"),
    db.select({ entries: count() }).from(playlistTracks).where(eq(playlistTracks.playlistId, id)),
    db
      .select({ trackId: playlistTracks.trackId })
      .from(playlistTracks)
      .where(and(eq(playlistTracks.playlistId, id), inArray(playlistTracks.trackId, trackIds))),
    appendAndTouch(db, id, principal, trackIds),
    playlistRow(db, id),
    playlistTrackRows(db, id),
  ]);
  assertOwnRow(owner, principal);
  const playableIds = new Set(playable.map((track) => track.id));
  const missing = trackIds.filter((trackId) => !playableIds.has(trackId));
  if (missing.length > 0) {
    throw new NotFoundError(`No playable track with the id ${missing.join(", ")}.`, {
      extensions: { missingTrackIds: missing },
    });
  }
  const presentIds = new Set(present.map((entry) => entry.trackId));
  const fresh = trackIds.filter((trackId) => !presentIds.has(trackId));
  if (fresh.length > 0 && (state[0]?.entries ?? 0) + fresh.length > PLAYLIST_TRACKS_MAX) {
    throw new ConflictError(`A playlist holds at most ${PLAYLIST_TRACKS_MAX} tracks.`);
  }
  return readBack(row, trackRows);
}

/**
 * DELETE /playlists/:id/tracks/:trackId: a track that is not in the playlist → 404. One batch, so
 * one round trip: the playlist row locked and read (owner, existence), the entry removed and the
 * playlist touched only for its owner and only when the entry existed, then the playlist read
 * back; the answer is decided from what the batch read, and nothing was written otherwise.
 */
export async function removeTrack(
  ctx: Pick<PlaylistDeps, "db" | "principal">,
  id: string,
  trackId: string,
): Promise<PlaylistOut> {
  const { db, principal } = ctx;
  // Positions keep their gap: order is all they mean, and appends start after the maximum.
  const [owner, removed, row, trackRows] = await db.batch([
    ownerRow(db, id, { lock: true }),
    changeAndTouch(
      db,
      id,
      sql`
        delete from ${playlistTracks}
        where ${playlistTracks.playlistId} = ${id} and ${playlistTracks.trackId} = ${trackId}
          and ${ownedBy(id, principal)}`,
    ),
    playlistRow(db, id),
    playlistTrackRows(db, id),
  ]);
  assertOwnRow(owner, principal);
  if ((removed.rows[0]?.changed ?? 0) === 0) {
    throw new NotFoundError("This track is not in the playlist.");
  }
  return readBack(row, trackRows);
}

/**
 * PUT /playlists/:id/tracks: the playlist's tracks in the order of `trackIds`, which must hold each
 * listed track exactly once (distinct ids, checked by the schema). One batch, so one round trip:
 * the playlist row locked and read (owner, existence; concurrent edits of the playlist queue
 * behind it), one statement that compares and reorders (`reorderAndTouch`), then the playlist
 * read back. The owner is checked before the comparison is answered, so a stranger learns
 * nothing of a playlist's tracks from a 409.
 */
export async function reorderTracks(
  ctx: Pick<PlaylistDeps, "db" | "principal">,
  id: string,
  trackIds: string[],
): Promise<PlaylistOut> {
  const { db, principal } = ctx;
  const [owner, reordered, row, trackRows] = await db.batch([
    ownerRow(db, id, { lock: true }),
    reorderAndTouch(db, id, principal, trackIds),
    playlistRow(db, id),
    playlistTrackRows(db, id),
  ]);
  assertOwnRow(owner, principal);
  const { extra = [], omitted = [] } = reordered.rows[0] ?? {};
  if (extra.length > 0 || omitted.length > 0) {
    const parts = [
      extra.length > 0 ? `not in the playlist: ${extra.join(", ")}` : "",
      omitted.length > 0 ? `left out: ${omitted.join(", ")}` : "",
    ];
    throw new ConflictError(
      `trackIds must list every track of the playlist exactly once (${parts.filter(Boolean).join("; ")}).`,
      { extensions: { extraTrackIds: extra, omittedTrackIds: omitted } },
    );
  }
  return readBack(row, trackRows);
}

/** The playlist as the batch read it back after the change. */
function readBack(
  row: Parameters<typeof toPlaylist>[0][],
  trackRows: Parameters<typeof toPlaylist>[1],
): PlaylistOut {
  const playlist = toPlaylist(row[0], trackRows);
  if (!playlist) throw new NotFoundError("No such playlist.");
  return playlist;
}
