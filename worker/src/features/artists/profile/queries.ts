import { type artistLikes, artists, type follows } from "@edge-music/db";
import { getTableName, sql } from "drizzle-orm";

/** What anyone may see of an artist (never the email): profiles, follows and search answers. */
export const publicArtistColumns = {
  id: artists.id,
  username: artists.username,
  bio: artists.bio,
  avatar: artists.avatar,
  backgroundImage: artists.backgroundImage,
  createdAt: artists.createdAt,
};

/**
 * Whether `userId` has a `<relation>` row (a follow, a like) to the outer query's artist, as a
 * column of that query: it costs no statement of its own. Spelled out with qualified names:
 * drizzle leaves columns unqualified in a single-table select, which inside a subquery would bind
 * `id` and `artist_id` to whichever table is nearest.
 */
export const relationOf = (relation: typeof follows | typeof artistLikes, userId: string) =>
  sql<boolean>`exists (select 1 from ${sql.identifier(getTableName(relation))} as mine where mine.artist_id = "artists"."id" and mine.user_id = ${userId})`;
