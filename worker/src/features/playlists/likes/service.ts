import { FOREIGN_KEY_VIOLATION, pgErrorCode, playlistLikes, playlists } from "@edge-music/db";
import { and, count, desc, eq, exists, sql } from "drizzle-orm";
import { NotFoundError } from "../../../errors/app-error.ts";
import { offsetOf, type Page } from "../../../validation/common.ts";
import { likeCount, playlistColumns, playlistFields, trackCount, visibleTo } from "../queries.ts";
import type { LikedPlaylistOut, LikeStateOut } from "../schema.ts";
import type { PlaylistDeps } from "../service.ts";

/**
 * POST /playlists/:id/like, idempotent: liking twice keeps one like. Only playlists the caller
 * may see can be liked (public ones and their own); others are 404, like on GET. One batch: the
 * visibility read, the like written only when visible, and the count after it.
 */
export async function likePlaylist(
  ctx: Pick<PlaylistDeps, "db" | "principal">,
  id: string,
): Promise<LikeStateOut> {
  const { db } = ctx;
  const userId = ctx.principal.id;
  try {
    const [visible, , likes] = await db.batch([
      visibleQuery(ctx, id),
      db.execute(sql`
        insert into ${playlistLikes} (user_id, playlist_id)
        select ${userId}, ${id}
        where exists (select from ${playlists} where ${playlists.id} = ${id} and ${visibleTo(userId)})
        on conflict do nothing`),
      countQuery(ctx, id),
    ]);
    if (visible.length === 0) throw new NotFoundError("No such playlist.");
    return { liked: true, _count: { likes: likes[0]?.likes ?? 0 } };
  } catch (error) {
    // Deleted between the visibility read and the insert.
    if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw new NotFoundError("No such playlist.");
    throw error;
  }
}

/** DELETE /playlists/:id/like, idempotent: removing a like that is not there is fine. */
export async function unlikePlaylist(
  ctx: Pick<PlaylistDeps, "db" | "principal">,
  id: string,
): Promise<LikeStateOut> {
  const { db } = ctx;
  const userId = ctx.principal.id;
  const [visible, , likes] = await db.batch([
    visibleQuery(ctx, id),
    db.delete(playlistLikes).where(
      and(
        eq(playlistLikes.userId, userId),
        eq(playlistLikes.playlistId, id),
        exists(
          db
            .select({ id: playlists.id })
            .from(playlists)
            .where(and(eq(playlists.id, id), visibleTo(userId))),
        ),
      ),
    ),
    countQuery(ctx, id),
  ]);
  if (visible.length === 0) throw new NotFoundError("No such playlist.");
  return { liked: false, _count: { likes: likes[0]?.likes ?? 0 } };
}

const visibleQuery = (ctx: Pick<PlaylistDeps, "db" | "principal">, id: string) =>
  ctx.db
    .select({ id: playlists.id })
    .from(playlists)
    .where(and(eq(playlists.id, id), visibleTo(ctx.principal.id)));

// Counted after the write, in its own statement: the count includes every like committed by then.
const countQuery = (ctx: Pick<PlaylistDeps, "db">, id: string) =>
  ctx.db.select({ likes: count() }).from(playlistLikes).where(eq(playlistLikes.playlistId, id));

/**
 * GET /playlists/me/liked: the playlists the caller likes, most recent like first (ties broken by
 * playlist id). Only those the caller may still see: a liked playlist its owner made private is
 * left out (the like is kept, and shows again if it is made public again). One statement.
 */
export async function listLikedPlaylists(
  ctx: Pick<PlaylistDeps, "db" | "principal">,
  page: Page,
): Promise<LikedPlaylistOut[]> {
  const userId = ctx.principal.id;
  const rows = await ctx.db
    .select({
      playlist: playlistColumns,
      likedAt: playlistLikes.createdAt,
      tracks: trackCount,
      likes: likeCount,
    })
    .from(playlistLikes)
    .innerJoin(playlists, eq(playlists.id, playlistLikes.playlistId))
    .where(and(eq(playlistLikes.userId, userId), visibleTo(userId)))
    .orderBy(desc(playlistLikes.createdAt), desc(playlistLikes.playlistId))
    .limit(page.limit)
    .offset(offsetOf(page));
  return rows.map((row) => ({
    ...playlistFields(row.playlist),
    likedAt: row.likedAt.toISOString(),
    _count: { tracks: row.tracks, likes: row.likes },
  }));
}
