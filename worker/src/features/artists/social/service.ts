import { artistLikes, artists, FOREIGN_KEY_VIOLATION, follows, pgErrorCode } from "@edge-music/db";
import { and, desc, eq, sql } from "drizzle-orm";
import { NotFoundError } from "../../../errors/app-error.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { offsetOf, type Page } from "../../../validation/common.ts";
import { countOf, publicArtistColumns, relationOf } from "../profile/queries.ts";
import type { FollowedArtist, FollowState, LikeState } from "./schema.ts";

/** What following and liking take: the database and the signed-in user. */
type SocialDeps = Pick<RequestDeps, "db" | "principal">;

type Relation = typeof follows | typeof artistLikes;

const artistNotFound = (artistId: string) => new NotFoundError(`No artist with id ${artistId}.`);

/**
 * Adds the caller → artist row; idempotent. The insert selects the artist, so an unknown artist
 * inserts nothing (the caller then reads no artist: 404); one deleted in between fails the
 * foreign key (also 404).
 */
const addRelation = (ctx: SocialDeps, relation: Relation, artistId: string) =>
  ctx.db
    .insert(relation)
    .select((qb) =>
      qb
        .select({
          userId: sql`${ctx.principal.id}::uuid`.as("user_id"),
          artistId: artists.id,
          createdAt: sql`now()`.as("created_at"),
        })
        .from(artists)
        .where(eq(artists.id, artistId)),
    )
    .onConflictDoNothing();

const removeRelation = (ctx: SocialDeps, relation: Relation, artistId: string) =>
  ctx.db
    .delete(relation)
    .where(and(eq(relation.userId, ctx.principal.id), eq(relation.artistId, artistId)));

const followRow = (ctx: SocialDeps, artistId: string) =>
  ctx.db
    .select({
      id: artists.id,
      username: artists.username,
      avatar: artists.avatar,
      followers: countOf(follows),
    })
    .from(artists)
    .where(eq(artists.id, artistId));

const likeRow = (ctx: SocialDeps, artistId: string) =>
  ctx.db
    .select({
      likes: countOf(artistLikes),
      liked: relationOf(artistLikes, ctx.principal.id),
    })
    .from(artists)
    .where(eq(artists.id, artistId));

/**
 * The write and the state after it go in one batch (one round trip, one transaction). The state
 * is read by the batch's second statement: under READ COMMITTED it counts the caller's own change
 * and every change committed before that statement began; a follow committing at the same instant
 * shows in the next read. No update is lost either way (the rows are the count).
 */
async function orNotFound<T>(artistId: string, batch: Promise<T>): Promise<T> {
  try {
    return await batch;
  } catch (error) {
    if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) throw artistNotFound(artistId);
    throw error;
  }
}

function followState(artistId: string, rows: Awaited<ReturnType<typeof followRow>>): FollowState {
  const [row] = rows;
  if (!row) throw artistNotFound(artistId);
  const { followers, ...artist } = row;
  return { ...artist, _count: { followers } };
}

function likeState(artistId: string, rows: Awaited<ReturnType<typeof likeRow>>): LikeState {
  const [row] = rows;
  if (!row) throw artistNotFound(artistId);
  return { liked: row.liked === true, _count: { likes: row.likes } };
}

export async function followArtist(ctx: SocialDeps, artistId: string) {
  const write = addRelation(ctx, follows, artistId);
  const [, rows] = await orNotFound(artistId, ctx.db.batch([write, followRow(ctx, artistId)]));
  return followState(artistId, rows);
}

export async function unfollowArtist(ctx: SocialDeps, artistId: string) {
  const write = removeRelation(ctx, follows, artistId);
  const [, rows] = await ctx.db.batch([write, followRow(ctx, artistId)]);
  return followState(artistId, rows);
}

export async function likeArtist(ctx: SocialDeps, artistId: string) {
  const write = addRelation(ctx, artistLikes, artistId);
  const [, rows] = await orNotFound(artistId, ctx.db.batch([write, likeRow(ctx, artistId)]));
  return likeState(artistId, rows);
}

export async function unlikeArtist(ctx: SocialDeps, artistId: string) {
  const write = removeRelation(ctx, artistLikes, artistId);
  const [, rows] = await ctx.db.batch([write, likeRow(ctx, artistId)]);
  return likeState(artistId, rows);
}

/** The artists the caller follows, most recent follow first (ties broken by artist id). */
export async function listFollowing(ctx: SocialDeps, page: Page): Promise<FollowedArtist[]> {
  const rows = await ctx.db
    .select({
      ...publicArtistColumns,
      followedAt: follows.createdAt,
      followers: countOf(follows),
    })
    .from(follows)
    .innerJoin(artists, eq(artists.id, follows.artistId))
    .where(eq(follows.userId, ctx.principal.id))
    .orderBy(desc(follows.createdAt), desc(follows.artistId))
    .limit(page.limit)
    .offset(offsetOf(page));
  return rows.map(({ followers, createdAt, followedAt, ...artist }) => ({
    ...artist,
    createdAt: createdAt.toISOString(),
    followedAt: followedAt.toISOString(),
    _count: { followers },
  }));
}
