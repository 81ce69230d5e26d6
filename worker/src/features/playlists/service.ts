import { playlists, playlistTracks, tracks } from "@edge-music/db";
import { and, asc, desc, eq, inArray, lte, sql } from "drizzle-orm";
import { NotFoundError, UnauthorizedError } from "../../errors/app-error.ts";
import { deleteMedia, readImage, storeImage } from "../../file-input/images.ts";
import { describeError } from "../../logger.ts";
import { assertOwner, type Principal } from "../../security/guard.ts";
import { offsetOf, type Page } from "../../validation/common.ts";
import { type PlaylistContext, viewerUserId } from "./context.ts";
import type { Queryable } from "./queries.ts";
import {
  isReady,
  likeCount,
  loadPlaylist,
  playlistColumns,
  playlistFields,
  trackCount,
  visibleTo,
} from "./queries.ts";
import type { PlaylistPatch } from "./schema.ts";
import {
  BRIEF_TRACKS,
  type OwnPlaylistOut,
  type PlaylistOut,
  type PlaylistSummaryOut,
} from "./schema.ts";

/** POST /playlists: a new, empty playlist of the caller. */
export async function createPlaylist(
  ctx: PlaylistContext,
  input: Required<PlaylistPatch>,
): Promise<PlaylistOut> {
  const [row] = await ctx.db
    .insert(playlists)
    .values({ ...input, userId: callerOf(ctx).id })
    .returning();
  if (!row) throw new Error("insert returned no playlist");
  return { ...playlistFields(row), tracks: [], _count: { tracks: 0, likes: 0 } };
}

/**
 * PUT /playlists/:id. The new cover is stored before the row changes (under a new name, see
 * storeImage) and the replaced one is deleted after the commit: a reader never meets a row
 * whose cover is missing. If the update fails, the new object is deleted again.
 */
export async function updatePlaylist(
  ctx: PlaylistContext,
  id: string,
  patch: PlaylistPatch,
  cover?: unknown,
): Promise<PlaylistOut> {
  const principal = callerOf(ctx);
  const fields = Object.fromEntries(
    Object.entries(patch).filter(([, value]) => value !== undefined),
  ) as PlaylistPatch;
  // Ownership first: a stranger's upload is never read, let alone stored.
  await assertOwnPlaylist(ctx.db, principal, id);
  const image = cover === undefined ? null : await readImage(cover, "cover");
  const newCover = image ? await storeImage(ctx.storage, "covers", image) : null;

  let result: { playlist: PlaylistOut; replaced: string | null };
  try {
    result = await ctx.db.transaction(async (tx) => {
      const current = await assertOwnPlaylist(tx, principal, id, { lock: true });
      await tx
        .update(playlists)
        .set({ ...fields, ...(newCover ? { cover: newCover } : {}), updatedAt: sql`now()` })
        .where(and(eq(playlists.id, id), eq(playlists.userId, principal.id)));
      const playlist = await loadPlaylist(tx, id);
      if (!playlist) throw new NotFoundError("No such playlist.");
      return { playlist, replaced: newCover ? current.cover : null };
    });
  } catch (error) {
    await discardMedia(ctx, [newCover]);
    throw error;
  }
  await discardMedia(ctx, [result.replaced]);
  return result.playlist;
}

/** DELETE /playlists/:id: the playlist, its entries and likes (cascade), then its cover object. */
export async function deletePlaylist(ctx: PlaylistContext, id: string): Promise<void> {
  const principal = callerOf(ctx);
  await assertOwnPlaylist(ctx.db, principal, id);
  const [row] = await ctx.db
    .delete(playlists)
    .where(and(eq(playlists.id, id), eq(playlists.userId, principal.id)))
    .returning({ cover: playlists.cover });
  // Deleted by a concurrent request between the check and here.
  if (!row) throw new NotFoundError("No such playlist.");
  await discardMedia(ctx, [row.cover]);
}

/**
 * Objects no row points at any more. The database change is already committed, so a storage
 * failure must not turn it into an error answer: it is logged (an orphan object, not a broken row).
 */
async function discardMedia(ctx: PlaylistContext, paths: Array<string | null>) {
  try {
    await deleteMedia(ctx.storage, paths);
  } catch (error) {
    ctx.log.warn("could not delete replaced media", { paths, ...describeError(error) });
  }
}

// Newest update first; the id breaks ties so that pages never overlap.
const newestFirst = [desc(playlists.updatedAt), desc(playlists.id)];

/** GET /playlists: public playlists, newest update first. */
export async function listPublicPlaylists(
  ctx: PlaylistContext,
  page: Page,
): Promise<PlaylistSummaryOut[]> {
  const rows = await ctx.db
    .select({ playlist: playlistColumns, tracks: trackCount, likes: likeCount })
    .from(playlists)
    .where(eq(playlists.isPublic, true))
    .orderBy(...newestFirst)
    .limit(page.limit)
    .offset(offsetOf(page));
  return rows.map((row) => ({
    ...playlistFields(row.playlist),
    _count: { tracks: row.tracks, likes: row.likes },
  }));
}

/** GET /playlists/me: the caller's playlists, newest update first, each with a brief track list. */
export async function listOwnPlaylists(
  ctx: PlaylistContext,
  userId: string,
  page: Page,
): Promise<OwnPlaylistOut[]> {
  const rows = await ctx.db
    .select({ playlist: playlistColumns, tracks: trackCount })
    .from(playlists)
    .where(eq(playlists.userId, userId))
    .orderBy(...newestFirst)
    .limit(page.limit)
    .offset(offsetOf(page));
  const brief = await briefTrackLists(
    ctx,
    rows.map((row) => row.playlist.id),
  );
  return rows.map(({ playlist, tracks: count }) => ({
    id: playlist.id,
    title: playlist.title,
    cover: playlist.cover,
    isPublic: playlist.isPublic,
    updatedAt: playlist.updatedAt.toISOString(),
    tracks: brief.get(playlist.id) ?? [],
    _count: { tracks: count },
  }));
}

/** The first BRIEF_TRACKS READY tracks of each playlist, in one query for the whole page. */
async function briefTrackLists(ctx: PlaylistContext, playlistIds: string[]) {
  const lists = new Map<string, Array<{ id: string; title: string; cover: string | null }>>();
  if (playlistIds.length === 0) return lists;
  const ranked = ctx.db
    .select({
      playlistId: playlistTracks.playlistId,
      id: tracks.id,
      title: tracks.title,
      cover: tracks.cover,
      rank: sql<number>`row_number() over (partition by ${playlistTracks.playlistId} order by ${playlistTracks.position}, ${tracks.id})`.as(
        "rank",
      ),
    })
    .from(playlistTracks)
    .innerJoin(tracks, eq(tracks.id, playlistTracks.trackId))
    .where(and(inArray(playlistTracks.playlistId, playlistIds), isReady))
    .as("ranked");
  const rows = await ctx.db
    .select()
    .from(ranked)
    .where(lte(ranked.rank, BRIEF_TRACKS))
    .orderBy(asc(ranked.playlistId), asc(ranked.rank));
  for (const { playlistId, id, title, cover } of rows) {
    const list = lists.get(playlistId) ?? [];
    list.push({ id, title, cover });
    lists.set(playlistId, list);
  }
  return lists;
}

/**
 * GET /playlists/:id. A private playlist is shown to its owner only; to anyone else it is
 * 404, exactly like a missing one, so that its existence is not revealed.
 */
export async function getPlaylist(ctx: PlaylistContext, id: string): Promise<PlaylistOut> {
  const playlist = await loadPlaylist(ctx.db, id, visibleTo(viewerUserId(ctx)));
  if (!playlist) throw new NotFoundError("No such playlist.");
  return playlist;
}

/** The signed-in caller of a protected route (the guard has set it). */
export function callerOf(ctx: PlaylistContext): Principal {
  if (!ctx.principal) throw new UnauthorizedError();
  return ctx.principal;
}

/**
 * (owner) writes: unknown → 404; someone else's → 403, private or not (the spec answers 403
 * to a user other than the owner; only reads hide private playlists behind a 404). With `lock`,
 * the row stays locked until the transaction ends, so concurrent writes of one playlist queue.
 */
export async function assertOwnPlaylist(
  db: Queryable,
  principal: Principal,
  id: string,
  { lock = false } = {},
): Promise<{ id: string; cover: string | null }> {
  const query = db
    .select({ id: playlists.id, userId: playlists.userId, cover: playlists.cover })
    .from(playlists)
    .where(eq(playlists.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new NotFoundError("No such playlist.");
  assertOwner(principal, row.userId, "playlist");
  return { id: row.id, cover: row.cover };
}
