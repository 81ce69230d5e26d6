import { relations } from "drizzle-orm";
import { date, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { artists } from "./artists";
import { createdAt, primaryId, updatedAt } from "./columns";
import { searchColumns, searchIndexes } from "./search";
import { tracks } from "./tracks";
import { shareKey, visibility } from "./visibility";

export const albums = pgTable(
  "albums",
  {
    id: primaryId(),
    artistId: uuid("artist_id")
      .notNull()
      .references(() => artists.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    cover: text("cover"),
    // At most 2000 characters, checked by the app.
    description: text("description").notNull().default(""),
    // A calendar date ("2024-05-17"), kept a string so no time zone can shift it by a day.
    releasedAt: date("released_at", { mode: "string" }),
    // Who may reach it (ADR 0025). An album's tracks keep their own visibility; a public
    // album lists only its public tracks.
    visibility: visibility("visibility").notNull().default("public"),
    shareKey: shareKey(),
    ...searchColumns("title"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("albums_artist_id_idx").on(t.artistId), ...searchIndexes("albums", t)],
);

export const albumsRelations = relations(albums, ({ one, many }) => ({
  artist: one(artists, { fields: [albums.artistId], references: [artists.id] }),
  tracks: many(tracks),
}));

export type Album = typeof albums.$inferSelect;
export type NewAlbum = typeof albums.$inferInsert;
