// Proving an address: a single-use link mailed to it (24 hours), which verifies it for the account.
import { eq, sql } from "drizzle-orm";
import { sendMail } from "../../../connections/mail.ts";
import { ConflictError, ValidationError } from "../../../errors/app-error.ts";
import { randomToken, sha256Hex } from "../../../security/crypto.ts";
import type { Principal } from "../../../security/principal.ts";
import { hitLimits, type Limit } from "../../../security/rate-limit.ts";
import type { AuthContext } from "../shared.ts";

export const EMAIL_TOKEN_TTL_SECONDS = 24 * 60 * 60;

/** A new verification token for `email`: the insert to send in a batch, and the mail to send after. */
export async function verificationToken(ctx: AuthContext, principalId: string, email: string) {
  const token = randomToken(32);
  const insert = ctx.db.insert(ctx.account.auth.emailTokens).values({
    principalId,
    email,
    tokenHash: await sha256Hex(token),
    expiresAt: new Date(ctx.now.getTime() + EMAIL_TOKEN_TTL_SECONDS * 1000),
  });
  const mail = () => {
    const link = new URL("/verify-email", ctx.env.FRONTEND_URL);
    link.searchParams.set("kind", ctx.account.name);
    link.searchParams.set("token", token);
    ctx.waitUntil(
      sendMail(ctx.env, ctx.log, {
        to: email,
        subject: "Confirm your Edge Music email address",
        text: `Confirm that this address belongs to your Edge Music ${ctx.account.name} account within 24 hours: ${link}\nVerification token: ${token}\n\nIf you did not sign up, ignore this message.`,
      }),
    );
  };
  return { insert, mail };
}

/**
 * A valid token (unused, unexpired, for the address the account still has) marks the address
 * verified, once, in one statement. It needs no session: the link may be opened anywhere.
 */
export async function verifyEmail(ctx: AuthContext, token: string) {
  const { principals, auth } = ctx.account;
  const tokens = auth.emailTokens;
  const tokenHash = await sha256Hex(token);
  const now = ctx.now.toISOString();
  const column = (c: { name: string }) => sql.identifier(c.name);
  const result = await ctx.db.execute(sql`
    with claimed as (
      update ${tokens} set ${column(tokens.usedAt)} = ${now}::timestamptz
      where ${column(tokens.tokenHash)} = ${tokenHash} and ${column(tokens.usedAt)} is null
        and ${column(tokens.expiresAt)} > ${now}::timestamptz
      returning ${column(tokens.principalId)} as principal_id, ${column(tokens.email)} as email
    ), verified as (
      update ${principals}
      set ${column(principals.emailVerifiedAt)} = coalesce(${principals.emailVerifiedAt}, ${now}::timestamptz)
      from claimed
      where ${principals.id} = claimed.principal_id and ${principals.email} = claimed.email
      returning ${principals.id}
    )
    select count(*)::int as n from verified`);
  const verified = (result.rows[0] as { n?: number } | undefined)?.n === 1;
  if (!verified) {
    throw new ValidationError([
      {
        path: "json.token",
        message: "invalid, already used, expired, or for an address the account no longer has",
        code: "invalid_token",
      },
    ]);
  }
  return { emailVerified: true as const };
}

/** Another link for the signed-in account's address: at most 3 an hour; 409 once verified. */
export async function resendVerification(ctx: AuthContext, principal: Principal) {
  const { principals } = ctx.account;
  const limit: Limit = {
    key: `verify:${ctx.account.name}:account:${principal.id}`,
    max: 3,
    windowSeconds: 60 * 60,
  };
  const [row] = await hitLimits(
    ctx.db,
    [limit],
    ctx.now,
    ctx.db
      .select({ email: principals.email, verifiedAt: principals.emailVerifiedAt })
      .from(principals)
      .where(eq(principals.id, principal.id)),
  );
  if (!row) throw new ConflictError("The account no longer exists.");
  if (row.verifiedAt) throw new ConflictError("The address is already verified.");
  const { insert, mail } = await verificationToken(ctx, principal.id, row.email);
  await insert;
  mail();
  return { message: "A new link is on its way." };
}
