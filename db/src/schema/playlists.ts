import { relations, sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, newestFirst, primaryId, updatedAt } from "./columns";
import { playlistLikes } from "./playlist-likes";
import { playlistTracks } from "./playlist-tracks";
import { searchColumns, searchIndexes } from "./search";
import { users } from "./users";
import { shareKey, visibility } from "./visibility";

export const playlists = pgTable(
  "playlists",
  {
    id: primaryId(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    cover: text("cover"),
    // Private unless the owner says otherwise.
    isPublic: boolean("is_public").notNull().default(false),
    // The spec's isPublic, widened (ADR 0025): public ⇔ isPublic; private and unlisted are both
    // not isPublic. The check constraint keeps the two columns in step.
    visibility: visibility("visibility").notNull().default("private"),
    shareKey: shareKey(),
    ...searchColumns("title"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("playlists_user_id_updated_at_idx").on(t.userId, newestFirst(t.updatedAt)),
    index("playlists_public_updated_at_idx").on(newestFirst(t.updatedAt)).where(sql`${t.isPublic}`),
    ...searchIndexes("playlists", t),
    check("playlists_visibility_check", sql`${t.isPublic} = (${t.visibility} = 'public')`),
  ],
);

export const playlistsRelations = relations(playlists, ({ one, many }) => ({
  user: one(users, { fields: [playlists.userId], references: [users.id] }),
  tracks: many(playlistTracks),
  likes: many(playlistLikes),
}));

export type Playlist = typeof playlists.$inferSelect;
export type NewPlaylist = typeof playlists.$inferInsert;
