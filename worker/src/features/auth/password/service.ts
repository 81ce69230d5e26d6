import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { sendMail } from "../../../connections/mail.ts";
import { ValidationError } from "../../../errors/app-error.ts";
import { randomToken, sha256Hex } from "../../../security/crypto.ts";
import { hashPassword } from "../../../security/password.ts";
import { AUTH_LIMITS, hitLimits } from "../../../security/rate-limit.ts";
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
  const passwordHash = await hashPassword(password);
  // One statement (one round trip, atomic): the token is claimed once; for the account that held
  // it the password is set, the address counts as proven (the link arrived), its other links die
  // and every session ends. A second request with the same token claims nothing and changes nothing.
  const now = ctx.now.toISOString();
  const column = (c: { name: string }) => sql.identifier(c.name);
  const { sessions } = auth;
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
    ), ended as (
      delete from ${sessions} where ${column(sessions.principalId)} in (select principal_id from claimed)
    )
    select principal_id from claimed`);
  const done = result.rows.length === 1;
  if (!done) throw invalid();
  return { message: "The password was changed. Sign in with the new one." };
}
