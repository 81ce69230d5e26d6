import { relations } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { playlists } from "./playlists";
import { tracks } from "./tracks";

export const playlistTracks = pgTable(
  "playlist_tracks",
  {
    playlistId: uuid("playlist_id")
      .notNull()
      .references(() => playlists.id, { onDelete: "cascade" }),
    trackId: uuid("track_id")
      .notNull()
      .references(() => tracks.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    addedAt: timestamptz("added_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.playlistId, t.trackId] }),
    // Not unique: reordering shifts positions row by row, which would collide midway through
    // the UPDATE, and drizzle cannot declare a DEFERRABLE unique constraint.
    index("playlist_tracks_playlist_id_position_idx").on(t.playlistId, t.position),
    index("playlist_tracks_track_id_idx").on(t.trackId),
  ],
);

export const playlistTracksRelations = relations(playlistTracks, ({ one }) => ({
  playlist: one(playlists, { fields: [playlistTracks.playlistId], references: [playlists.id] }),
  track: one(tracks, { fields: [playlistTracks.trackId], references: [tracks.id] }),
}));

export type PlaylistTrack = typeof playlistTracks.$inferSelect;
export type NewPlaylistTrack = typeof playlistTracks.$inferInsert;
