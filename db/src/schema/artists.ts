import { relations, sql } from "drizzle-orm";
import { pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { albums } from "./albums";
import { artistLikes } from "./artist-likes";
import { authTablesFor } from "./auth";
import { createdAt, primaryId, timestamptz, updatedAt } from "./columns";
import { follows } from "./follows";
import { searchColumns, searchIndexes } from "./search";
import { tracks } from "./tracks";

/** Uploaders. Independent of users: the same username or email may exist in both. */
export const artists = pgTable(
  "artists",
  {
    id: primaryId(),
    // 3–30 characters, checked by the app.
    username: text("username").notNull(),
    // Lower-cased by the app, so the plain unique index is case-insensitive.
    email: text("email").notNull(),
    // Null for accounts that only ever signed in through OAuth.
    passwordHash: text("password_hash"),
    // Set once the address is proven: a completed password reset (the mail arrived) or a sign-in
    // through a provider that vouches for it. Until then, a provider's verified sign-in with the
    // same address takes the account over (see the OAuth service): an unproven registration must
    // not be a trap for the address's real owner.
    emailVerifiedAt: timestamptz("email_verified_at"),
    bio: text("bio").notNull().default(""),
    // Media paths (/static/avatars/<id>.png), not URLs, so the media host can change freely.
    avatar: text("avatar"),
    backgroundImage: text("background_image"),
    ...searchColumns("username"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("artists_username_idx").on(sql`lower(${t.username})`),
    uniqueIndex("artists_email_idx").on(t.email),
    ...searchIndexes("artists", t),
  ],
);

export const artistAuth = authTablesFor("artist", artists);
export const {
  sessions: artistSessions,
  passwordResetTokens: artistPasswordResetTokens,
  oauthAccounts: artistOauthAccounts,
  twoFactor: artistTwoFactor,
  recoveryCodes: artistRecoveryCodes,
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
export type ArtistSession = typeof artistSessions.$inferSelect;
export type ArtistPasswordResetToken = typeof artistPasswordResetTokens.$inferSelect;
export type ArtistOauthAccount = typeof artistOauthAccounts.$inferSelect;
export type ArtistTwoFactor = typeof artistTwoFactor.$inferSelect;
export type ArtistRecoveryCode = typeof artistRecoveryCodes.$inferSelect;
