import { relations } from "drizzle-orm";
import { pgTable } from "drizzle-orm/pg-core";
import { artistLikes } from "./artist-likes";
import { authTablesFor } from "./auth";
import { accountColumns, accountIndexes, createdAt, updatedAt } from "./columns";
import { follows } from "./follows";
import { listeningHistory } from "./listening-history";
import { playlistLikes } from "./playlist-likes";
import { playlists } from "./playlists";

/** Listeners. Independent of artists: the same username or email may exist in both. */
export const users = pgTable(
  "users",
  {
    ...accountColumns(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [...accountIndexes("users", t)],
);

export const userAuth = authTablesFor("user", users);
export const {
  sessions: userSessions,
  passwordResetTokens: userPasswordResetTokens,
  oauthAccounts: userOauthAccounts,
  twoFactor: userTwoFactor,
  recoveryCodes: userRecoveryCodes,
  emailTokens: userEmailTokens,
  appPasswords: userAppPasswords,
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
