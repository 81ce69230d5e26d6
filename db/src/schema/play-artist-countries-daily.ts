import { date, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { artists } from "./artists";

// A roll-up of plays (ADR 0028), written only by the plays queue's consumer
// (worker/src/features/plays/), never on a listener's request. Days and hours are UTC.

/**
 * Plays of an artist's tracks per day and country: the statistics' countries over a year read
 * a few rows per day instead of every track's (`play_countries_daily`).
 */
export const playArtistCountriesDaily = pgTable(
  "play_artist_countries_daily",
  {
    artistId: uuid("artist_id")
      .notNull()
      .references(() => artists.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    country: text("country").notNull(),
    plays: integer("plays").notNull(),
  },
  (t) => [primaryKey({ columns: [t.artistId, t.day, t.country] })],
);
