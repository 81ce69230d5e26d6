import { relations } from "drizzle-orm";
import { index, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { playlists } from "./playlists";
import { users } from "./users";

export const playlistLikes = pgTable(
  "playlist_likes",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    playlistId: uuid("playlist_id")
      .notNull()
      .references(() => playlists.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.playlistId] }),
    // Like counts; the primary key only serves lookups by user.
    index("playlist_likes_playlist_id_idx").on(t.playlistId),
  ],
);

export const playlistLikesRelations = relations(playlistLikes, ({ one }) => ({
  user: one(users, { fields: [playlistLikes.userId], references: [users.id] }),
  playlist: one(playlists, { fields: [playlistLikes.playlistId], references: [playlists.id] }),
}));

export type PlaylistLike = typeof playlistLikes.$inferSelect;
export type NewPlaylistLike = typeof playlistLikes.$inferInsert;
