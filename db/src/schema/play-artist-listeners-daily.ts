import { date, index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { artists } from "./artists";

// A roll-up of plays (ADR 0028), written only by the plays queue's consumer
// (worker/src/features/plays/), never on a listener's request. Days and hours are UTC.

/** The listener keys behind `play_artist_daily`. */
export const playArtistListenersDaily = pgTable(
  "play_artist_listeners_daily",
  {
    artistId: uuid("artist_id")
      .notNull()
      .references(() => artists.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    listenerKey: text("listener_key").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.artistId, t.day, t.listenerKey] }),
    index("play_artist_listeners_daily_day_idx").on(t.day),
  ],
);
