import { relations } from "drizzle-orm";
import { appPasswordsTable } from "./app-passwords";
import { emailTokensTable } from "./email-tokens";
import { oauthAccountsTable } from "./oauth-accounts";
import { passwordResetTokensTable } from "./password-reset-tokens";
import type { PrincipalKind, PrincipalTable } from "./principal";
import { recoveryCodesTable } from "./recovery-codes";
import { sessionsTable } from "./sessions";
import { twoFactorTable } from "./two-factor";

export type { PrincipalKind, PrincipalTable } from "./principal";

/**
 * Every auth table for one principal kind, plus their relations back to the principal.
 * Users and artists share the mechanics but not the rows: each kind gets its own tables, so a
 * listener token can never resolve to an artist account or the reverse.
 */
export function authTablesFor<K extends PrincipalKind, P extends PrincipalTable>(
  kind: K,
  principal: P,
) {
  const sessions = sessionsTable(kind, principal);
  const passwordResetTokens = passwordResetTokensTable(kind, principal);
  const oauthAccounts = oauthAccountsTable(kind, principal);
  const twoFactor = twoFactorTable(kind, principal);
  const recoveryCodes = recoveryCodesTable(kind, principal);
  const emailTokens = emailTokensTable(kind, principal);
  const appPasswords = appPasswordsTable(kind, principal);

  return {
    sessions,
    passwordResetTokens,
    oauthAccounts,
    twoFactor,
    recoveryCodes,
    emailTokens,
    appPasswords,
    sessionsRelations: relations(sessions, ({ one }) => ({
      principal: one(principal, {
        fields: [sessions.principalId],
        references: [principal.id],
      }),
    })),
    passwordResetTokensRelations: relations(passwordResetTokens, ({ one }) => ({
      principal: one(principal, {
        fields: [passwordResetTokens.principalId],
        references: [principal.id],
      }),
    })),
    oauthAccountsRelations: relations(oauthAccounts, ({ one }) => ({
      principal: one(principal, {
        fields: [oauthAccounts.principalId],
        references: [principal.id],
      }),
    })),
    twoFactorRelations: relations(twoFactor, ({ one }) => ({
      principal: one(principal, {
        fields: [twoFactor.principalId],
        references: [principal.id],
      }),
    })),
    recoveryCodesRelations: relations(recoveryCodes, ({ one }) => ({
      principal: one(principal, {
        fields: [recoveryCodes.principalId],
        references: [principal.id],
      }),
    })),
  };
}

export type AuthTables<K extends PrincipalKind = PrincipalKind> = ReturnType<
  typeof authTablesFor<K, PrincipalTable>
>;
