import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { tracks } from "./tracks";
import { users } from "./users";

/**
 * What a listener's app says it is playing now (Subsonic `scrobble` with `submission=false`):
 * one row per listener, the latest, read back by `getNowPlaying` while the track can still be
 * playing. Transient: replaced by the next, gone with the listener or the track.
 */
export const nowPlaying = pgTable(
  "now_playing",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    trackId: uuid("track_id")
      .notNull()
      .references(() => tracks.id, { onDelete: "cascade" }),
    // The app's name (`c`), shown as the player's.
    client: text("client").notNull().default(""),
    startedAt: timestamptz("started_at").notNull().defaultNow(),
  },
  // A track's deletion cascades here by it.
  (table) => [index("now_playing_track_id_idx").on(table.trackId)],
);

export type NowPlaying = typeof nowPlaying.$inferSelect;
