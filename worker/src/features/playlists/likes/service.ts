import { FOREIGN_KEY_VIOLATION, pgErrorCode, playlistLikes, playlists } from "@edge-music/db";
import { and, count, eq } from "drizzle-orm";
import { NotFoundError } from "../../../errors/app-error.ts";
import { visibleTo } from "../queries.ts";
import type { LikeStateOut } from "../schema.ts";
import type { PlaylistDeps } from "../service.ts";

/**
 * POST /playlists/:id/like, idempotent: liking twice keeps one like. Only playlists the caller
 * may see can be liked (public ones and their own); others are 404, like on GET.
 */
export async function likePlaylist(ctx: PlaylistDeps, id: string): Promise<LikeStateOut> {
  const userId = ctx.principal.id;
  await assertVisible(ctx, id, userId);
  try {
    await ctx.db.insert(playlistLikes).values({ userId, playlistId: id }).onConflictDoNothing();
  } catch (error) {
    // Deleted between the check and the insert.
    if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw new NotFoundError("No such playlist.");
    throw error;
  }
  return { liked: true, _count: { likes: await countLikes(ctx, id) } };
}

/** DELETE /playlists/:id/like, idempotent: removing a like that is not there is fine. */
export async function unlikePlaylist(ctx: PlaylistDeps, id: string): Promise<LikeStateOut> {
  const userId = ctx.principal.id;
  await assertVisible(ctx, id, userId);
  await ctx.db
    .delete(playlistLikes)
    .where(and(eq(playlistLikes.userId, userId), eq(playlistLikes.playlistId, id)));
  return { liked: false, _count: { likes: await countLikes(ctx, id) } };
}

async function assertVisible(ctx: PlaylistDeps, id: string, userId: string) {
  const [row] = await ctx.db
    .select({ id: playlists.id })
    .from(playlists)
    .where(and(eq(playlists.id, id), visibleTo(userId)));
  if (!row) throw new NotFoundError("No such playlist.");
}

// Counted after the write, in its own statement: the count includes every like committed by then.
async function countLikes(ctx: PlaylistDeps, id: string): Promise<number> {
  const [row] = await ctx.db
    .select({ likes: count() })
    .from(playlistLikes)
    .where(eq(playlistLikes.playlistId, id));
  return row?.likes ?? 0;
}
