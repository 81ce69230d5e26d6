import { relations } from "drizzle-orm";
import { index, pgTable, uuid } from "drizzle-orm/pg-core";
import { newestFirst, timestamptz } from "./columns";
import { tracks } from "./tracks";
import { users } from "./users";

export const listeningHistory = pgTable(
  "listening_history",
  {
    // No default: the app mints UUIDv7 so ids sort by time (Postgres 17 has no uuidv7()).
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    trackId: uuid("track_id")
      .notNull()
      .references(() => tracks.id, { onDelete: "cascade" }),
    listenedAt: timestamptz("listened_at").notNull().defaultNow(),
  },
  (t) => [
    // "Newest listen of each track" (DISTINCT ON (track_id) ... ORDER BY listened_at DESC).
    index("listening_history_user_id_track_id_listened_at_idx").on(
      t.userId,
      t.trackId,
      newestFirst(t.listenedAt),
    ),
    // The plain history, newest first, paginated by (listened_at, id).
    index("listening_history_user_id_listened_at_idx").on(t.userId, newestFirst(t.listenedAt)),
    // Deleting a track cascades here; without this index each delete scans the whole history.
    index("listening_history_track_id_idx").on(t.trackId),
  ],
);

export const listeningHistoryRelations = relations(listeningHistory, ({ one }) => ({
  user: one(users, { fields: [listeningHistory.userId], references: [users.id] }),
  track: one(tracks, { fields: [listeningHistory.trackId], references: [tracks.id] }),
}));

export type Listen = typeof listeningHistory.$inferSelect;
export type NewListen = typeof listeningHistory.$inferInsert;
