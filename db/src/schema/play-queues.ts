import { relations } from "drizzle-orm";
import { doublePrecision, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { updatedAt } from "./columns";
import { users } from "./users";

/**
 * A listener's saved play queue, one per listener: what the web player and Subsonic apps
 * (`savePlayQueue`/`getPlayQueue`) restore on another device. The ids are kept as written (a
 * track deleted since is left out when the queue is read), so no foreign key per entry.
 */
export const playQueues = pgTable("play_queues", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  trackIds: uuid("track_ids").array().notNull(),
  currentTrackId: uuid("current_track_id"),
  // Seconds into the current track.
  position: doublePrecision("position").notNull().default(0),
  // Which client saved it last ("web", or a Subsonic app's `c`).
  changedBy: text("changed_by").notNull().default(""),
  updatedAt: updatedAt(),
});

export const playQueuesRelations = relations(playQueues, ({ one }) => ({
  user: one(users, { fields: [playQueues.userId], references: [users.id] }),
}));

export type PlayQueue = typeof playQueues.$inferSelect;
