import { relations } from "drizzle-orm";
import { index, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { artists } from "./artists";
import { createdAt } from "./columns";
import { users } from "./users";

/**
 * A table of one kind of link from a user to an artist (a follow, a like): one row per pair, gone
 * with either side, and `<name>_artist_id_idx` for the counts per artist (the primary key, user
 * first, only serves lookups by user).
 */
export function userArtistLinkTable<Name extends string>(name: Name) {
  return pgTable(
    name,
    {
      userId: uuid("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      artistId: uuid("artist_id")
        .notNull()
        .references(() => artists.id, { onDelete: "cascade" }),
      createdAt: createdAt(),
    },
    (t) => [
      primaryKey({ columns: [t.userId, t.artistId] }),
      index(`${name}_artist_id_idx`).on(t.artistId),
    ],
  );
}

/** The relations of such a table: its user and its artist. */
export function userArtistLinkRelations<Name extends string>(
  table: ReturnType<typeof userArtistLinkTable<Name>>,
) {
  return relations(table, ({ one }) => ({
    user: one(users, { fields: [table.userId], references: [users.id] }),
    artist: one(artists, { fields: [table.artistId], references: [artists.id] }),
  }));
}
