import { relations, sql } from "drizzle-orm";
import { pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { artistLikes } from "./artist-likes";
import { authTablesFor } from "./auth";
import { createdAt, primaryId, timestamptz, updatedAt } from "./columns";
import { follows } from "./follows";
import { listeningHistory } from "./listening-history";
import { playlistLikes } from "./playlist-likes";
import { playlists } from "./playlists";

/** Listeners. Independent of artists: the same username or email may exist in both. */
export const users = pgTable(
  "users",
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_username_idx").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_idx").on(t.email),
  ],
);

export const userAuth = authTablesFor("user", users);
export const {
  sessions: userSessions,
  passwordResetTokens: userPasswordResetTokens,
  oauthAccounts: userOauthAccounts,
  twoFactor: userTwoFactor,
  recoveryCodes: userRecoveryCodes,
  sessionsRelations: userSessionsRelations,
  passwordResetTokensRelations: userPasswordResetTokensRelations,
  oauthAccountsRelations: userOauthAccountsRelations,
  twoFactorRelations: userTwoFactorRelations,
  recoveryCodesRelations: userRecoveryCodesRelations,
} = userAuth;

export const usersRelations = relations(users, ({ one, many }) => ({
  sessions: many(userSessions),
  passwordResetTokens: many(userPasswordResetTokens),
  oauthAccounts: many(userOauthAccounts),
  twoFactor: one(userTwoFactor),
  recoveryCodes: many(userRecoveryCodes),
  playlists: many(playlists),
  listeningHistory: many(listeningHistory),
  follows: many(follows),
  artistLikes: many(artistLikes),
  playlistLikes: many(playlistLikes),
}));

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type UserSession = typeof userSessions.$inferSelect;
export type UserPasswordResetToken = typeof userPasswordResetTokens.$inferSelect;
export type UserOauthAccount = typeof userOauthAccounts.$inferSelect;
export type UserTwoFactor = typeof userTwoFactor.$inferSelect;
export type UserRecoveryCode = typeof userRecoveryCodes.$inferSelect;
