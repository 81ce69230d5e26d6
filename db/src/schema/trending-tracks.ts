import { sql } from "drizzle-orm";
import {
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { tracks } from "./tracks";

/**
 * Trending tracks per window (`day`, `week`), recomputed every minute by the cron: public READY
 * tracks ranked by score (ADR 0028 says how it is made).
 */
export const trendingTracks = pgTable(
  "trending_tracks",
  {
    window: text("window").notNull(),
    rank: integer("rank").notNull(),
    trackId: uuid("track_id")
      .notNull()
      .references(() => tracks.id, { onDelete: "cascade" }),
    score: doublePrecision("score").notNull(),
    listeners: integer("listeners").notNull(),
    likes: integer("likes").notNull(),
    computedAt: timestamptz("computed_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.window, t.rank] }),
    index("trending_tracks_track_id_idx").on(t.trackId),
  ],
);
