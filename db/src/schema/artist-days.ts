import { date, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { artists } from "./artists";

// Roll-ups of an artist's likes and new followers per UTC day, for the statistics' day series
// (ADR 0028): kept by statement triggers on `track_likes` and `follows` (migration 0026), never
// written by the Worker. A like or follow taken back is taken off its day; the likes of a track
// deleted since stay on their days (the likes it received then).

/** Likes of an artist's tracks made per day. */
export const artistLikesDaily = pgTable(
  "artist_likes_daily",
  {
    artistId: uuid("artist_id")
      .notNull()
      .references(() => artists.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    likes: integer("likes").notNull(),
  },
  (t) => [primaryKey({ columns: [t.artistId, t.day] })],
);

/** New followers of an artist per day. */
export const artistFollowsDaily = pgTable(
  "artist_follows_daily",
  {
    artistId: uuid("artist_id")
      .notNull()
      .references(() => artists.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    follows: integer("follows").notNull(),
  },
  (t) => [primaryKey({ columns: [t.artistId, t.day] })],
);
