import { index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { tracks } from "./tracks";

// A roll-up of plays (ADR 0028), written only by the plays queue's consumer
// (worker/src/features/plays/), never on a listener's request. Days and hours are UTC.

/**
 * When a listener's play of a track last counted: a report within 10 minutes of it does not
 * count again. Also what makes a redelivered batch harmless. Rows older than a day are swept by
 * the per-minute cron.
 */
export const playRecent = pgTable(
  "play_recent",
  {
    listenerKey: text("listener_key").notNull(),
    trackId: uuid("track_id")
      .notNull()
      .references(() => tracks.id, { onDelete: "cascade" }),
    countedAt: timestamptz("counted_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.listenerKey, t.trackId] }),
    index("play_recent_counted_at_idx").on(t.countedAt),
  ],
);
