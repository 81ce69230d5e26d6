import { relations, sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { albums } from "./albums";
import { artists } from "./artists";
import { createdAt, primaryId, timestamptz, updatedAt } from "./columns";
import { listeningHistory } from "./listening-history";
import { playlistTracks } from "./playlist-tracks";
import { searchColumns, searchIndexes } from "./search";
import { trackFiles } from "./track-files";
import { shareKey, visibility } from "./visibility";

export const processingStatus = pgEnum("processing_status", ["PROCESSING", "READY", "FAILED"]);

export const tracks = pgTable(
  "tracks",
  {
    id: primaryId(),
    artistId: uuid("artist_id")
      .notNull()
      .references(() => artists.id, { onDelete: "cascade" }),
    // Deleting an album keeps its tracks as singles.
    albumId: uuid("album_id").references(() => albums.id, { onDelete: "set null" }),
    // The track's place in its album (1, 2, …); null for a single. Given by a trigger when the
    // track joins an album (after its last track), changed by the album's reorder (migration 0016).
    albumPosition: integer("album_position"),
    title: text("title").notNull(),
    cover: text("cover"),
    // Seconds; unknown until the transcoder has probed the upload.
    duration: doublePrecision("duration"),
    processingStatus: processingStatus("processing_status").notNull().default("PROCESSING"),
    processingError: text("processing_error"),
    // The last conversion failed for good because of the file itself (it cannot be decoded, has
    // no audio, is too long): converting it again would fail the same way (ADR 0015).
    sourceUnreadable: boolean("source_unreadable").notNull().default(false),
    processingAttempts: integer("processing_attempts").notNull().default(0),
    processingStartedAt: timestamptz("processing_started_at"),
    processingFinishedAt: timestamptz("processing_finished_at"),
    // 0–100 while PROCESSING, written by the transcoder now and then; 100 once READY.
    processingProgress: integer("processing_progress").notNull().default(0),
    // EBU R128 integrated loudness (LUFS) and true peak (dBTP) of the source, for clients that
    // normalise volume; null until measured.
    loudnessLufs: doublePrecision("loudness_lufs"),
    truePeakDbtp: doublePrecision("true_peak_dbtp"),
    // The upload's temporary object-storage key: the transcoder's input, not served to anyone.
    sourceKey: text("source_key"),
    sourceFileName: text("source_file_name"),
    // Who may reach it (ADR 0025): public, unlisted (with the share key) or private.
    visibility: visibility("visibility").notNull().default("public"),
    shareKey: shareKey(),
    // Counted plays (ADR 0028): kept by the plays queue's consumer, one update per track a batch.
    plays: bigint("plays", { mode: "number" }).notNull().default(0),
    ...searchColumns("title"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("tracks_artist_id_idx").on(t.artistId),
    index("tracks_album_id_idx").on(t.albumId),
    // Partial: the reconciler scans only unfinished tracks, a small slice once uploads settle.
    index("tracks_processing_started_at_idx")
      .on(t.processingStartedAt)
      .where(sql`${t.processingStatus} = 'PROCESSING'`),
    ...searchIndexes("tracks", t),
  ],
);

export const tracksRelations = relations(tracks, ({ one, many }) => ({
  artist: one(artists, { fields: [tracks.artistId], references: [artists.id] }),
  album: one(albums, { fields: [tracks.albumId], references: [albums.id] }),
  files: many(trackFiles),
  playlistTracks: many(playlistTracks),
  listens: many(listeningHistory),
}));

export type ProcessingStatus = (typeof processingStatus.enumValues)[number];
export type Track = typeof tracks.$inferSelect;
export type NewTrack = typeof tracks.$inferInsert;
