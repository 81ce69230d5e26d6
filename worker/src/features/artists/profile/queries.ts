import { type artistLikes, artists, type follows, qualified } from "@edge-music/db";
import { sql } from "drizzle-orm";

/** What anyone may see of an artist (never the email): profiles, follows and search answers. */
export const publicArtistColumns = {
  id: artists.id,
  username: artists.username,
  displayName: artists.displayName,
  bio: artists.bio,
  avatar: artists.avatar,
  backgroundImage: artists.backgroundImage,
  createdAt: artists.createdAt,
};

/**
 * Whether `userId` has a `<relation>` row (a follow, a like) to the outer query's artist, as a
 * column of that query: it costs no statement of its own.
 */
export const relationOf = (relation: typeof follows | typeof artistLikes, userId: string) =>
  sql<boolean>`exists (select 1 from ${relation} where ${qualified(relation.artistId)} = ${qualified(artists.id)} and ${qualified(relation.userId)} = ${userId})`;

/** How many `<relation>` rows (follows, likes) the outer query's artist has, as a column. */
export const countOf = (relation: typeof follows | typeof artistLikes) =>
  sql<number>`(select count(*) from ${relation} where ${qualified(relation.artistId)} = ${qualified(artists.id)})`.mapWith(
    Number,
  );
