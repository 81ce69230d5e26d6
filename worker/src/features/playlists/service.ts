import { playlists } from "@edge-music/db";
import { and, eq, sql } from "drizzle-orm";
import { NotFoundError } from "../../errors/app-error.ts";
import { describeError } from "../../logger.ts";
import { deleteMedia, readImage, storeImage } from "../../media/images.ts";
import type { PlaylistContext } from "./context.ts";
import { assertOwnPlaylist, callerOf } from "./ownership.ts";
import { loadPlaylist, playlistFields } from "./queries.ts";
import type { PlaylistOut, PlaylistPatch } from "./schema.ts";

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
