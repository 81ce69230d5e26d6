import { date, index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { tracks } from "./tracks";

// A roll-up of plays (ADR 0028), written only by the plays queue's consumer
// (worker/src/features/plays/), never on a listener's request. Days and hours are UTC.

/**
 * Who listened to a track on a day, once each (`ON CONFLICT DO NOTHING` says whether a listener
 * is new that day): `u:<user id>` for a signed-in listener, `n:<hash>` for a network whose key is
 * an HMAC of the address under a salt of that day (never the address).
 */
export const playListenersDaily = pgTable(
  "play_listeners_daily",
  {
    trackId: uuid("track_id")
      .notNull()
      .references(() => tracks.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    listenerKey: text("listener_key").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.trackId, t.day, t.listenerKey] }),
    index("play_listeners_daily_day_idx").on(t.day),
  ],
);
