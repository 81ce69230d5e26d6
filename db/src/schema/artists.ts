import { relations, sql } from "drizzle-orm";
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { albums } from "./albums";
import { artistLikes } from "./artist-likes";
import { authTablesFor } from "./auth";
import { accountColumns, accountIndexes, createdAt, updatedAt } from "./columns";
import { follows } from "./follows";
import { compactName, searchColumns, searchIndexes } from "./search";
import { tracks } from "./tracks";

/** Uploaders. Independent of users: the same username or email may exist in both. */
export const artists = pgTable(
  "artists",
  {
    ...accountColumns(),
    bio: text("bio").notNull().default(""),
    // Media paths (/static/avatars/<id>.png), not URLs, so the media host can change freely.
    avatar: text("avatar"),
    backgroundImage: text("background_image"),
    // Searched by both names: the display name first (people type the name they see).
    ...searchColumns(sql`coalesce("display_name" || ' ', '') || "username"`),
    searchHandle: compactName("username", "search_handle"),
    searchDisplay: compactName("display_name", "search_display"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    ...accountIndexes("artists", t),
    ...searchIndexes("artists", t),
    // A prefix of the username when a display name comes first in search_text.
    index("artists_username_search_prefix_idx").on(
      sql`lower(public.immutable_unaccent(${t.username})) text_pattern_ops`,
    ),
    index("artists_search_handle_trgm_idx").using("gin", t.searchHandle.op("gin_trgm_ops")),
    index("artists_search_display_trgm_idx").using("gin", t.searchDisplay.op("gin_trgm_ops")),
  ],
);

export const artistAuth = authTablesFor("artist", artists);
export const {
  sessions: artistSessions,
  passwordResetTokens: artistPasswordResetTokens,
  oauthAccounts: artistOauthAccounts,
  twoFactor: artistTwoFactor,
  recoveryCodes: artistRecoveryCodes,
  emailTokens: artistEmailTokens,
  appPasswords: artistAppPasswords,
  sessionsRelations: artistSessionsRelations,
  passwordResetTokensRelations: artistPasswordResetTokensRelations,
  oauthAccountsRelations: artistOauthAccountsRelations,
  twoFactorRelations: artistTwoFactorRelations,
  recoveryCodesRelations: artistRecoveryCodesRelations,
} = artistAuth;

export const artistsRelations = relations(artists, ({ one, many }) => ({
  sessions: many(artistSessions),
  passwordResetTokens: many(artistPasswordResetTokens),
  oauthAccounts: many(artistOauthAccounts),
  twoFactor: one(artistTwoFactor),
  recoveryCodes: many(artistRecoveryCodes),
  tracks: many(tracks),
  albums: many(albums),
  followers: many(follows),
  likes: many(artistLikes),
}));

export type Artist = typeof artists.$inferSelect;
export type NewArtist = typeof artists.$inferInsert;
