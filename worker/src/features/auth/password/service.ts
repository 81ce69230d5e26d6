import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { sendMail } from "../../../connections/mail.ts";
import { ValidationError } from "../../../errors/app-error.ts";
import { overlay } from "../../../request-deps.ts";
import { randomToken, sha256Hex } from "../../../security/crypto.ts";
import { hashPassword } from "../../../security/password.ts";
import { AUTH_LIMITS, hitLimits } from "../../../security/rate-limit.ts";
import { endAllSessions } from "../../../security/sessions.ts";
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
  // A cheap look first: a flood of made-up tokens must not each cost a password hash.
  const [live] = await ctx.db
    .select({ id: tokens.id })
    .from(tokens)
    .where(
      and(eq(tokens.tokenHash, tokenHash), isNull(tokens.usedAt), gt(tokens.expiresAt, ctx.now)),
    );
  if (!live) throw invalid();
  await hitLimits(ctx.db, [AUTH_LIMITS.hashingPerIp(ctx.ip)], ctx.now);
  const passwordHash = await hashPassword(password);
  const done = await ctx.interactiveDb.transaction(async (tx) => {
    const [claimed] = await tx
      .update(tokens)
      .set({ usedAt: ctx.now })
      .where(
        and(eq(tokens.tokenHash, tokenHash), isNull(tokens.usedAt), gt(tokens.expiresAt, ctx.now)),
      )
      .returning({ principalId: tokens.principalId });
    if (!claimed) return false;
    await tx
      .update(principals)
      // The reset link arrived: the address is proven.
      .set({ passwordHash, emailVerifiedAt: ctx.now, updatedAt: ctx.now })
      .where(eq(principals.id, claimed.principalId));
    // Other outstanding links of this account die with it, and so does every session.
    await tx
      .update(tokens)
      .set({ usedAt: ctx.now })
      .where(and(eq(tokens.principalId, claimed.principalId), isNull(tokens.usedAt)));
    await endAllSessions(overlay(ctx, { db: tx }), claimed.principalId);
    return true;
  });
  if (!done) throw invalid();
  return { message: "The password was changed. Sign in with the new one." };
}
