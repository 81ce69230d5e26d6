import { relations } from "drizzle-orm";
import {
  bigint,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, primaryId } from "./columns";
import { tracks } from "./tracks";

export const trackFileKind = pgEnum("track_file_kind", [
  "opus",
  "hls_master",
  "hls_playlist",
  "hls_init",
  "hls_segment",
  // One rung of the AAC ladder as one whole MP4 file (audio/<kbps>k.m4a).
  "aac",
]);

/** One row per object the transcoder wrote for a track. */
export const trackFiles = pgTable(
  "track_files",
  {
    id: primaryId(),
    trackId: uuid("track_id")
      .notNull()
      .references(() => tracks.id, { onDelete: "cascade" }),
    kind: trackFileKind("kind").notNull(),
    // kbps; null for the master playlist, which spans every bitrate.
    bitrate: integer("bitrate"),
    // e.g. tracks/<trackId>/hls/128/segment_00000.m4s. Unique: two rows must never claim one
    // object, or deleting either track would delete the other's file.
    storageKey: text("storage_key").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("track_files_storage_key_idx").on(t.storageKey),
    index("track_files_track_id_idx").on(t.trackId),
  ],
);

export const trackFilesRelations = relations(trackFiles, ({ one }) => ({
  track: one(tracks, { fields: [trackFiles.trackId], references: [tracks.id] }),
}));

export type TrackFileKind = (typeof trackFileKind.enumValues)[number];
export type TrackFile = typeof trackFiles.$inferSelect;
export type NewTrackFile = typeof trackFiles.$inferInsert;
