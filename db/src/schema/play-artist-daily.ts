import { date, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { artists } from "./artists";

// A roll-up of plays (ADR 0028), written only by the plays queue's consumer
// (worker/src/features/plays/), never on a listener's request. Days and hours are UTC.

/**
 * Plays and distinct listeners of an artist's tracks per day (a listener of two tracks counts
 * once): the statistics' days read one row per day, not one per track and day.
 */
export const playArtistDaily = pgTable(
  "play_artist_daily",
  {
    artistId: uuid("artist_id")
      .notNull()
      .references(() => artists.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    plays: integer("plays").notNull().default(0),
    listeners: integer("listeners").notNull(),
  },
  (t) => [primaryKey({ columns: [t.artistId, t.day] })],
);
