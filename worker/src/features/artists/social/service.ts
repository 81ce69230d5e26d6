import { artistLikes, artists, FOREIGN_KEY_VIOLATION, follows, pgErrorCode } from "@edge-music/db";
import { and, desc, eq, sql } from "drizzle-orm";
import { NotFoundError } from "../../../errors/app-error.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { offsetOf, type Page } from "../../../validation/common.ts";
import { countOf, publicArtistColumns, relationOf } from "../profile/queries.ts";
import type { FollowedArtist, FollowState, LikedArtist, LikeState } from "./schema.ts";

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
      displayName: artists.displayName,
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

/**
 * The artists the caller has a `<relation>` row to, most recent first (ties broken by artist id),
 * each with the relation's time and its count for the artist. One statement.
 */
const listLinked = (ctx: SocialDeps, relation: Relation, page: Page) =>
  ctx.db
    .select({ ...publicArtistColumns, at: relation.createdAt, count: countOf(relation) })
    .from(relation)
    .innerJoin(artists, eq(artists.id, relation.artistId))
    .where(eq(relation.userId, ctx.principal.id))
    .orderBy(desc(relation.createdAt), desc(relation.artistId))
    .limit(page.limit)
    .offset(offsetOf(page));

/** GET /artists/me/following: the artists the caller follows, most recent follow first. */
export async function listFollowing(ctx: SocialDeps, page: Page): Promise<FollowedArtist[]> {
  const rows = await listLinked(ctx, follows, page);
  return rows.map(({ count, createdAt, at, ...artist }) => ({
    ...artist,
    createdAt: createdAt.toISOString(),
    followedAt: at.toISOString(),
    _count: { followers: count },
  }));
}

/** GET /artists/me/liked: the artists the caller likes, most recent like first. */
export async function listLikedArtists(ctx: SocialDeps, page: Page): Promise<LikedArtist[]> {
  const rows = await listLinked(ctx, artistLikes, page);
  return rows.map(({ count, createdAt, at, ...artist }) => ({
    ...artist,
    createdAt: createdAt.toISOString(),
    likedAt: at.toISOString(),
    _count: { likes: count },
  }));
}
