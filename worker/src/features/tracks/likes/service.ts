import { artists, FOREIGN_KEY_VIOLATION, pgErrorCode, trackLikes, tracks } from "@edge-music/db";
import { and, count, desc, eq, exists, sql } from "drizzle-orm";
import { NotFoundError } from "../../../errors/app-error.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { offsetOf, type Page } from "../../../validation/common.ts";
import { listedTrack } from "../../sharing/queries.ts";
import { PUBLIC_TRACK_COLUMNS, toTrackDto } from "../catalogue/queries.ts";
import { LIKED_IDS_MAX, type LikedTrackView, type TrackLikeState } from "./schema.ts";

type LikeDeps = Pick<RequestDeps, "db" | "principal">;

/**
 * A track a listener may like: one anyone can hear (READY and public, ADR 0025). An unlisted
 * track is liked by nobody: its likes would list it where its link was never given.
 */
const hearable = (id: string) => and(eq(tracks.id, id), listedTrack);

const NO_SUCH_TRACK = "No such track.";

/**
 * POST /tracks/:id/like, idempotent. One batch: whether the track can be heard, the like written
 * only then, and the count after it.
 */
export async function likeTrack(ctx: LikeDeps, id: string): Promise<TrackLikeState> {
  const { db } = ctx;
  try {
    const [found, , likes] = await db.batch([
      db.select({ id: tracks.id }).from(tracks).where(hearable(id)),
      db.execute(sql`
        insert into ${trackLikes} (user_id, track_id)
        select ${ctx.principal.id}, ${id}
        where exists (select from ${tracks} where ${hearable(id)})
        on conflict do nothing`),
      countOf(ctx, id),
    ]);
    if (found.length === 0) throw new NotFoundError(NO_SUCH_TRACK);
    return { liked: true, _count: { likes: likes[0]?.likes ?? 0 } };
  } catch (error) {
    // Deleted between the read and the insert.
    if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw new NotFoundError(NO_SUCH_TRACK);
    throw error;
  }
}

/** DELETE /tracks/:id/like, idempotent: removing a like that is not there is fine. */
export async function unlikeTrack(ctx: LikeDeps, id: string): Promise<TrackLikeState> {
  const { db } = ctx;
  const [found, , likes] = await db.batch([
    db.select({ id: tracks.id }).from(tracks).where(hearable(id)),
    db
      .delete(trackLikes)
      .where(
        and(
          eq(trackLikes.userId, ctx.principal.id),
          eq(trackLikes.trackId, id),
          exists(db.select({ id: tracks.id }).from(tracks).where(hearable(id))),
        ),
      ),
    countOf(ctx, id),
  ]);
  if (found.length === 0) throw new NotFoundError(NO_SUCH_TRACK);
  return { liked: false, _count: { likes: likes[0]?.likes ?? 0 } };
}

// Counted after the write, in its own statement: every like committed by then.
const countOf = (ctx: Pick<LikeDeps, "db">, id: string) =>
  ctx.db.select({ likes: count() }).from(trackLikes).where(eq(trackLikes.trackId, id));

/**
 * GET /tracks/me/liked: the READY public tracks the caller likes, most recent like first (ties by
 * track id). A liked track that cannot be heard (being converted again, made unlisted or private)
 * is left out while so; the like is kept. One statement.
 */
export async function listLikedTracks(ctx: LikeDeps, page: Page): Promise<LikedTrackView[]> {
  const rows = await ctx.db
    .select({ ...PUBLIC_TRACK_COLUMNS, likedAt: trackLikes.createdAt })
    .from(trackLikes)
    .innerJoin(tracks, eq(tracks.id, trackLikes.trackId))
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(and(eq(trackLikes.userId, ctx.principal.id), listedTrack))
    .orderBy(desc(trackLikes.createdAt), desc(trackLikes.trackId))
    .limit(page.limit)
    .offset(offsetOf(page));
  return rows.map((row) => ({ ...toTrackDto(row), likedAt: row.likedAt.toISOString() }));
}

/** GET /tracks/me/liked/ids: the ids of the READY tracks the caller likes, newest like first. */
export async function likedTrackIds(ctx: LikeDeps): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: trackLikes.trackId })
    .from(trackLikes)
    .innerJoin(tracks, eq(tracks.id, trackLikes.trackId))
    .where(and(eq(trackLikes.userId, ctx.principal.id), listedTrack))
    .orderBy(desc(trackLikes.createdAt), desc(trackLikes.trackId))
    .limit(LIKED_IDS_MAX);
  return rows.map((row) => row.id);
}
