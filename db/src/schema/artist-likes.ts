import { relations } from "drizzle-orm";
import { index, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { artists } from "./artists";
import { createdAt } from "./columns";
import { users } from "./users";

/** A user liking an artist; independent of following. */
export const artistLikes = pgTable(
  "artist_likes",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    artistId: uuid("artist_id")
      .notNull()
      .references(() => artists.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.artistId] }),
    // Like counts; the primary key only serves lookups by user.
    index("artist_likes_artist_id_idx").on(t.artistId),
  ],
);

export const artistLikesRelations = relations(artistLikes, ({ one }) => ({
  user: one(users, { fields: [artistLikes.userId], references: [users.id] }),
  artist: one(artists, { fields: [artistLikes.artistId], references: [artists.id] }),
}));

export type ArtistLike = typeof artistLikes.$inferSelect;
export type NewArtistLike = typeof artistLikes.$inferInsert;
