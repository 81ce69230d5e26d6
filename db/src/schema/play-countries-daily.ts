import { date, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { tracks } from "./tracks";

// A roll-up of plays (ADR 0028), written only by the plays queue's consumer
// (worker/src/features/plays/), never on a listener's request. Days and hours are UTC.

/** Plays per track, day and country (`request.cf.country` at the edge; `XX` when unknown). */
export const playCountriesDaily = pgTable(
  "play_countries_daily",
  {
    trackId: uuid("track_id")
      .notNull()
      .references(() => tracks.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    country: text("country").notNull(),
    plays: integer("plays").notNull(),
  },
  (t) => [primaryKey({ columns: [t.trackId, t.day, t.country] })],
);
