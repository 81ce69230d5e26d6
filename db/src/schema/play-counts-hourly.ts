import { index, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { tracks } from "./tracks";

// A roll-up of plays (ADR 0028), written only by the plays queue's consumer
// (worker/src/features/plays/), never on a listener's request. Days and hours are UTC.

/** Plays per track and hour (a play's hour is when it was reported, not when it was counted). */
export const playCountsHourly = pgTable(
  "play_counts_hourly",
  {
    trackId: uuid("track_id")
      .notNull()
      .references(() => tracks.id, { onDelete: "cascade" }),
    hour: timestamptz("hour").notNull(),
    plays: integer("plays").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.trackId, t.hour] }),
    // Trending's day window reads the last 24 hours of every track.
    index("play_counts_hourly_hour_idx").on(t.hour),
  ],
);
