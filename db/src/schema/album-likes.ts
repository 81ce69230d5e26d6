import { relations, sql } from "drizzle-orm";
import { index, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { albums } from "./albums";
import { createdAt } from "./columns";
import { users } from "./users";

/** A listener liking an album (a star on an album in Subsonic's terms). */
export const albumLikes = pgTable(
  "album_likes",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    albumId: uuid("album_id")
      .notNull()
      .references(() => albums.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.albumId] }),
    // Like counts per album.
    index("album_likes_album_id_idx").on(t.albumId),
    // A listener's liked albums, newest like first, read in index order.
    index("album_likes_user_newest_idx").on(
      t.userId,
      sql`${t.createdAt} DESC`,
      sql`${t.albumId} DESC`,
    ),
  ],
);

export const albumLikesRelations = relations(albumLikes, ({ one }) => ({
  user: one(users, { fields: [albumLikes.userId], references: [users.id] }),
  album: one(albums, { fields: [albumLikes.albumId], references: [albums.id] }),
}));

export type AlbumLike = typeof albumLikes.$inferSelect;
