import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { sendMail } from "../../../connections/mail.ts";
import { ConflictError, ValidationError } from "../../../errors/app-error.ts";
import { randomToken, sha256Hex } from "../../../security/crypto.ts";
import { hashPassword, verifyPassword } from "../../../security/password.ts";
import type { Principal } from "../../../security/principal.ts";
import {
  AUTH_LIMITS,
  type Hit,
  hitLimits,
  hitQuery,
  signInLimits,
} from "../../../security/rate-limit.ts";
import { endAppPasswords } from "../../app-passwords/service.ts";
import { endEmailLinks } from "../email/service.ts";
import type { AuthContext } from "../shared.ts";

export const RESET_TOKEN_TTL_SECONDS = 60 * 60;
export const FORGOT_ANSWER = {
  message: "If an account with this email exists, a reset link is on its way.",
};

/**
 * Always the same answer, whether or not the account exists; the mail is sent after the
 * response, so the time taken does not tell either. The limits count every request (per email
 * and per address), known or not, so a 429 reveals nothing either.
 */
export async function forgotPassword(ctx: AuthContext, email: string) {
  await hitLimits(
    ctx.db,
    [AUTH_LIMITS.resetPerAccount(ctx.account.name, email), AUTH_LIMITS.resetPerIp(ctx.ip)],
    ctx.now,
  );
  const { principals, auth } = ctx.account;
  const tokens = auth.passwordResetTokens;
  // One statement whether the account exists or not (no timing difference): the token row is
  // inserted only for an account with this address.
  const token = randomToken(32);
  const tokenHash = await sha256Hex(token);
  const expiresAt = new Date(ctx.now.getTime() + RESET_TOKEN_TTL_SECONDS * 1000);
  const inserted = await ctx.db
    .insert(tokens)
    .select((qb) =>
      qb
        // Every column, in the table's order (drizzle's rule for INSERT … SELECT).
        .select({
          id: sql`gen_random_uuid()`.as("id"),
          principalId: principals.id,
          tokenHash: sql`${tokenHash}`.as("token_hash"),
          expiresAt: sql`${expiresAt.toISOString()}::timestamptz`.as("expires_at"),
          usedAt: sql`null::timestamptz`.as("used_at"),
          createdAt: sql`now()`.as("created_at"),
        })
        .from(principals)
        .where(eq(principals.email, email)),
    )
    .returning({ principalId: tokens.principalId });
  if (inserted.length === 0) return FORGOT_ANSWER;
  const link = new URL("/reset-password", ctx.env.FRONTEND_URL);
  link.searchParams.set("kind", ctx.account.name);
  link.searchParams.set("token", token);
  ctx.waitUntil(
    sendMail(ctx.env, ctx.log, {
      to: email,
      subject: "Reset your Edge Music password",
      text: `Someone asked to reset the password of your Edge Music ${ctx.account.name} account.\n\nReset it within an hour: ${link}\nReset token: ${token}\n\nIf it was not you, ignore this message.`,
    }),
  );
  return FORGOT_ANSWER;
}

/**
 * A valid token (unused, unexpired) sets the password once and ends every session of the
 * account. It does not sign in: the next sign-in still asks for the second factor.
 */
export async function resetPassword(ctx: AuthContext, token: string, password: string) {
  const { principals, auth } = ctx.account;
  const tokens = auth.passwordResetTokens;
  const tokenHash = await sha256Hex(token);
  const invalid = () =>
    new ValidationError([
      { path: "json.token", message: "invalid, already used or expired", code: "invalid_token" },
    ]);
  // A cheap look, with the address's hashing limit, first: a made-up token costs no hash.
  const [live] = await hitLimits(
    ctx.db,
    [AUTH_LIMITS.hashingPerIp(ctx.ip)],
    ctx.now,
    ctx.db
      .select({ id: tokens.id })
      .from(tokens)
      .where(
        and(eq(tokens.tokenHash, tokenHash), isNull(tokens.usedAt), gt(tokens.expiresAt, ctx.now)),
      ),
  );
  if (!live) throw invalid();
  const passwordHash = await hashPassword(password, ctx.env.PASSWORD_HASH_COST);
  // One statement (one round trip, atomic): the token is claimed once; for the account that held
  // it the password is set, the address counts as proven (the link arrived), its other links die
  // (reset links, and every verification or change link: a stranger who registered the address
  // first keeps no change link once its owner adopts the account) every session and every app password end. A second request with the same token claims nothing and changes nothing.
  const now = ctx.now.toISOString();
  const column = (c: { name: string }) => sql.identifier(c.name);
  const { sessions, emailTokens, appPasswords } = auth;
  const result = await ctx.db.execute(sql`
    with claimed as (
      update ${tokens} set ${column(tokens.usedAt)} = ${now}::timestamptz
      where ${column(tokens.tokenHash)} = ${tokenHash} and ${column(tokens.usedAt)} is null
        and ${column(tokens.expiresAt)} > ${now}::timestamptz
      returning ${column(tokens.principalId)} as principal_id
    ), changed as (
      update ${principals} set ${column(principals.passwordHash)} = ${passwordHash},
        ${column(principals.emailVerifiedAt)} = ${now}::timestamptz,
        ${column(principals.updatedAt)} = ${now}::timestamptz
      where ${column(principals.id)} in (select principal_id from claimed)
    ), other_links as (
      update ${tokens} set ${column(tokens.usedAt)} = ${now}::timestamptz
      where ${column(tokens.principalId)} in (select principal_id from claimed)
        and ${column(tokens.usedAt)} is null and ${column(tokens.tokenHash)} <> ${tokenHash}
    ), email_links as (
      update ${emailTokens} set ${column(emailTokens.usedAt)} = ${now}::timestamptz
      where ${column(emailTokens.principalId)} in (select principal_id from claimed)
        and ${column(emailTokens.usedAt)} is null
    ), ended as (
      delete from ${sessions} where ${column(sessions.principalId)} in (select principal_id from claimed)
    ), apps_ended as (
      delete from ${appPasswords} where ${column(appPasswords.principalId)} in (select principal_id from claimed)
    )
    select principal_id from claimed`);
  const done = result.rows.length === 1;
  if (!done) throw invalid();
  return { message: "The password was changed. Sign in with the new one." };
}

export const PASSWORD_CHANGED = {
  message: "The password was changed. Every other session of the account has ended.",
};

/**
 * The signed-in owner changes the password, proving the current one. A wrong current password is
 * a failed sign-in: it counts against the same limits as a login (per account and per client
 * network) and answers 400 (`errors[0].code` = `wrong_password`; not 401, which would tell a
 * client its session ended). On success, in the second round trip: the counters given back, the
 * password set (only if it is still the one just checked), every other session and every app
 * password ended; a notice
 * goes to the account's address.
 */
export async function changePassword(
  ctx: AuthContext,
  principal: Principal,
  input: { currentPassword: string; newPassword: string },
) {
  const { db } = ctx;
  const { principals, auth } = ctx.account;
  // The sign-in limits of the account are keyed by its email, read in the same statement.
  const emailOf = sql`coalesce((select ${principals.email} from ${principals} where ${principals.id} = ${principal.id}), ${principal.id})`;
  const counters = signInLimits(ctx.account.name, emailOf, ctx.ip);
  const results = (await db.batch([
    ...counters.limits.map((limit) => hitQuery(db, limit, ctx.now)),
    db
      .select({ email: principals.email, passwordHash: principals.passwordHash })
      .from(principals)
      .where(eq(principals.id, principal.id)),
  ] as unknown as [BatchItem<"pg">, ...BatchItem<"pg">[]])) as unknown[];
  const rows = results.at(-1) as Array<{ email: string; passwordHash: string | null }>;
  counters.judge(results.slice(0, -1) as Hit[], ctx.now);
  const [row] = rows;
  if (!row) throw new ConflictError("The account no longer exists.");
  if (!row.passwordHash) {
    throw new ConflictError(
      "This account signs in through an identity provider and has no password; set one with a reset link (password/forgot).",
    );
  }
  if (!(await verifyPassword(row.passwordHash, input.currentPassword))) {
    throw new ValidationError([
      {
        path: "json.currentPassword",
        message: "is not the current password",
        code: "wrong_password",
      },
    ]);
  }
  if (input.newPassword === input.currentPassword) {
    throw new ValidationError([
      {
        path: "json.newPassword",
        message: "must differ from the current password",
        code: "same_password",
      },
    ]);
  }
  const passwordHash = await hashPassword(input.newPassword, ctx.env.PASSWORD_HASH_COST);
  const { sessions } = auth;
  const [, , changed] = await db.batch([
    ...counters.forgive(db, row.email),
    // Only over the password just checked: of two changes at once, the second changes nothing.
    db
      .update(principals)
      .set({ passwordHash, updatedAt: ctx.now })
      .where(and(eq(principals.id, principal.id), eq(principals.passwordHash, row.passwordHash)))
      .returning({ id: principals.id }),
    db
      .delete(sessions)
      .where(and(eq(sessions.principalId, principal.id), ne(sessions.id, principal.sessionId))),
    endEmailLinks(ctx, principal.id),
    endAppPasswords(ctx, principal.id),
  ]);
  if (changed.length === 0) {
    throw new ConflictError("The password was changed by another request meanwhile; try again.");
  }
  ctx.waitUntil(
    sendMail(ctx.env, ctx.log, {
      to: row.email,
      subject: "Your Edge Music password was changed",
      text: `The password of your Edge Music ${ctx.account.name} account was changed, and every other session of the account was signed out.\n\nIf it was not you, reset your password now (${new URL("/forgot-password", ctx.env.FRONTEND_URL)}) and check the account's sessions.`,
    }),
  );
  return PASSWORD_CHANGED;
}
