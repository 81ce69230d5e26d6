import { date, index, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { tracks } from "./tracks";

// A roll-up of plays (ADR 0028), written only by the plays queue's consumer
// (worker/src/features/plays/), never on a listener's request. Days and hours are UTC.

/** Plays and distinct listeners per track and day. */
export const playCountsDaily = pgTable(
  "play_counts_daily",
  {
    trackId: uuid("track_id")
      .notNull()
      .references(() => tracks.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    plays: integer("plays").notNull(),
    listeners: integer("listeners").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.trackId, t.day] }),
    index("play_counts_daily_day_idx").on(t.day),
    // The artist's statistics sum a range of a track's days (top tracks): with the counts in the
    // index, an index-only scan (a year of 100 tracks: 14 → 6 ms in bench/stats.bench.ts). The
    // counts' updates are no longer HOT; the consumer's throughput is measured in bench/plays.
    index("play_counts_daily_totals_idx").on(t.trackId, t.day, t.plays, t.listeners),
  ],
);
