import { relations, sql } from "drizzle-orm";
import { check, pgTable, primaryKey, smallint, uuid } from "drizzle-orm/pg-core";
import { updatedAt } from "./columns";
import { tracks } from "./tracks";
import { users } from "./users";

/** A listener's rating of a track, 1–5 stars (Subsonic's `setRating`; 0 removes the row). */
export const trackRatings = pgTable(
  "track_ratings",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    trackId: uuid("track_id")
      .notNull()
      .references(() => tracks.id, { onDelete: "cascade" }),
    rating: smallint("rating").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.trackId] }),
    check("track_ratings_rating_check", sql`${t.rating} BETWEEN 1 AND 5`),
  ],
);

export const trackRatingsRelations = relations(trackRatings, ({ one }) => ({
  user: one(users, { fields: [trackRatings.userId], references: [users.id] }),
  track: one(tracks, { fields: [trackRatings.trackId], references: [tracks.id] }),
}));

export type TrackRating = typeof trackRatings.$inferSelect;
