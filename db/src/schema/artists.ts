import { relations } from "drizzle-orm";
import { pgTable, text } from "drizzle-orm/pg-core";
import { albums } from "./albums";
import { artistLikes } from "./artist-likes";
import { authTablesFor } from "./auth";
import { accountColumns, accountIndexes, createdAt, updatedAt } from "./columns";
import { follows } from "./follows";
import { searchColumns, searchIndexes } from "./search";
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
    ...searchColumns("username"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [...accountIndexes("artists", t), ...searchIndexes("artists", t)],
);

export const artistAuth = authTablesFor("artist", artists);
export const {
  sessions: artistSessions,
  passwordResetTokens: artistPasswordResetTokens,
  oauthAccounts: artistOauthAccounts,
  twoFactor: artistTwoFactor,
  recoveryCodes: artistRecoveryCodes,
  emailTokens: artistEmailTokens,
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
