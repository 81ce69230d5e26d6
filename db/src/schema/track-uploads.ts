import { bigint, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { albums } from "./albums";
import { artists } from "./artists";
import { createdAt, timestamptz } from "./columns";
import { visibility } from "./visibility";

/**
 * A direct upload in progress: an S3 multipart upload the artist's client sends straight to
 * storage. Its id becomes the track's id when the upload is completed; until then no track exists.
 * Uploads left incomplete are aborted after `expires_at`.
 */
export const trackUploads = pgTable(
  "track_uploads",
  {
    // Made by the Worker: the future track's id, so the object lands under tracks/<id>/source/.
    id: uuid("id").primaryKey(),
    artistId: uuid("artist_id")
      .notNull()
      .references(() => artists.id, { onDelete: "cascade" }),
    // Checked again when the track is made (the album may be gone by then).
    albumId: uuid("album_id").references(() => albums.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    // The track's visibility once made (ADR 0025): an artist may upload straight to unlisted or
    // private, so that nothing is public before they choose.
    visibility: visibility("visibility").notNull().default("public"),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    storageKey: text("storage_key").notNull(),
    // The storage's own id of the multipart upload.
    multipartId: text("multipart_id").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("track_uploads_artist_id_idx").on(t.artistId),
    index("track_uploads_expires_at_idx").on(t.expiresAt),
  ],
);
