import { relations, sql } from "drizzle-orm";
import { index, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { tracks } from "./tracks";
import { users } from "./users";

/** A listener liking a track (a star on a song in Subsonic's terms). */
export const trackLikes = pgTable(
  "track_likes",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    trackId: uuid("track_id")
      .notNull()
      .references(() => tracks.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.trackId] }),
    // Like counts per track.
    index("track_likes_track_id_idx").on(t.trackId),
    // A listener's liked tracks, newest like first (ties by track id), read in index order.
    index("track_likes_user_newest_idx").on(
      t.userId,
      sql`${t.createdAt} DESC`,
      sql`${t.trackId} DESC`,
    ),
  ],
);

export const trackLikesRelations = relations(trackLikes, ({ one }) => ({
  user: one(users, { fields: [trackLikes.userId], references: [users.id] }),
  track: one(tracks, { fields: [trackLikes.trackId], references: [tracks.id] }),
}));

export type TrackLike = typeof trackLikes.$inferSelect;
