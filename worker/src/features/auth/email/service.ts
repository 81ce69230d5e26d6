// Proving an address: a single-use link mailed to it (24 hours), which verifies it for the account
// or moves the account to it (an email change).
import { pgErrorCode, UNIQUE_VIOLATION } from "@edge-music/db";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { alias } from "drizzle-orm/pg-core";
import { sendMail } from "../../../connections/mail.ts";
import { ConflictError, ValidationError } from "../../../errors/app-error.ts";
import { randomToken, sha256Hex } from "../../../security/crypto.ts";
import type { Principal } from "../../../security/principal.ts";
import { hitLimits, type Limit } from "../../../security/rate-limit.ts";
import { type ReauthProof, reauthenticate } from "../reauth.ts";
import type { AuthContext } from "../shared.ts";
import { withSecondFactor } from "../two-factor/second-factor.ts";

export const EMAIL_TOKEN_TTL_SECONDS = 24 * 60 * 60;

type TokenPurpose = "verify" | "change";

/**
 * A new single-use link for `email`: the insert to send in a batch, and the mail to send after.
 * "verify" proves the account's address; "change" moves the account to `email`.
 */
export async function verificationToken(
  ctx: AuthContext,
  principalId: string,
  email: string,
  purpose: TokenPurpose = "verify",
) {
  const token = randomToken(32);
  const insert = ctx.db.insert(ctx.account.auth.emailTokens).values({
    principalId,
    email,
    purpose,
    tokenHash: await sha256Hex(token),
    expiresAt: new Date(ctx.now.getTime() + EMAIL_TOKEN_TTL_SECONDS * 1000),
  });
  const mail = () => {
    const link = new URL("/verify-email", ctx.env.FRONTEND_URL);
    link.searchParams.set("kind", ctx.account.name);
    link.searchParams.set("token", token);
    const ask =
      purpose === "change"
        ? `Confirm that your Edge Music ${ctx.account.name} account should use this address from now on, within 24 hours: ${link}`
        : `Confirm that this address belongs to your Edge Music ${ctx.account.name} account within 24 hours: ${link}`;
    const otherwise =
      purpose === "change"
        ? "If you did not ask for this, ignore this message: nothing changes."
        : "If you did not sign up, ignore this message.";
    ctx.waitUntil(
      sendMail(ctx.env, ctx.log, {
        to: email,
        subject:
          purpose === "change"
            ? "Confirm your new Edge Music email address"
            : "Confirm your Edge Music email address",
        text: `${ask}\nVerification token: ${token}\n\n${otherwise}`,
      }),
    );
  };
  return { insert, mail };
}

/**
 * Ends every outstanding link of the account mailed for its address (verification and change),
 * as a statement to send in the same batch as a step that recovers the account: a password change
 * or reset, signing out everywhere, turning 2FA on or off, new recovery codes. Whoever asked for a
 * change with a stolen password (or registered the address before its owner) keeps nothing that
 * could move the account later.
 */
export function endEmailLinks(
  ctx: Pick<AuthContext, "db" | "account" | "now">,
  principalId: string,
) {
  const tokens = ctx.account.auth.emailTokens;
  return ctx.db
    .update(tokens)
    .set({ usedAt: ctx.now })
    .where(and(eq(tokens.principalId, principalId), isNull(tokens.usedAt)));
}

/** How the document says it, on every step that calls endEmailLinks. */
export const EMAIL_LINKS_END =
  "Every outstanding link mailed for the account's address (verification, email change) stops working in the same statement: an email change asked with a stolen password is cancelled.";

const INVALID_TOKEN = () =>
  new ValidationError([
    {
      path: "json.token",
      message: "invalid, already used, expired, or for an address the account no longer has",
      code: "invalid_token",
    },
  ]);

/**
 * A valid token (unused, unexpired) does what it was mailed for, once, in one statement: a
 * "verify" link marks the address verified while the account still has it; a "change" link moves
 * the account to its address (verified by this very link), and ends every other link of the
 * account, email or password reset, since those went to the old address. It needs no session:
 * the link may be opened anywhere.
 */
export async function verifyEmail(ctx: AuthContext, token: string) {
  const { principals, auth } = ctx.account;
  const tokens = auth.emailTokens;
  const resets = auth.passwordResetTokens;
  const tokenHash = await sha256Hex(token);
  const now = ctx.now.toISOString();
  const column = (c: { name: string }) => sql.identifier(c.name);
  let row: { purpose: TokenPurpose; old_email: string; email: string } | undefined;
  try {
    const result = await ctx.db.execute(sql`
      with claimed as (
        update ${tokens} set ${column(tokens.usedAt)} = ${now}::timestamptz
        where ${column(tokens.tokenHash)} = ${tokenHash} and ${column(tokens.usedAt)} is null
          and ${column(tokens.expiresAt)} > ${now}::timestamptz
        returning ${column(tokens.id)} as id, ${column(tokens.principalId)} as principal_id,
          ${column(tokens.email)} as email, ${column(tokens.purpose)} as purpose
      ), before as (
        select ${principals.id} as id, ${principals.email} as old_email
        from ${principals} join claimed on ${principals.id} = claimed.principal_id
      ), verified as (
        update ${principals}
        set ${column(principals.email)} = claimed.email,
          ${column(principals.emailVerifiedAt)} = case when claimed.purpose = 'change'
            then ${now}::timestamptz
            else coalesce(${principals.emailVerifiedAt}, ${now}::timestamptz) end,
          ${column(principals.updatedAt)} = case when claimed.purpose = 'change'
            then ${now}::timestamptz else ${principals.updatedAt} end
        from claimed
        where ${principals.id} = claimed.principal_id
          and (claimed.purpose = 'change' or ${principals.email} = claimed.email)
        returning ${principals.id} as id, claimed.purpose as purpose, claimed.id as token_id
      ), other_links as (
        update ${tokens} set ${column(tokens.usedAt)} = ${now}::timestamptz
        from verified
        where verified.purpose = 'change' and ${tokens.principalId} = verified.id
          and ${tokens.id} <> verified.token_id and ${tokens.usedAt} is null
        returning 1
      ), reset_links as (
        update ${resets} set ${column(resets.usedAt)} = ${now}::timestamptz
        from verified
        where verified.purpose = 'change' and ${resets.principalId} = verified.id
          and ${resets.usedAt} is null
        returning 1
      )
      select verified.purpose, before.old_email, claimed.email
      from verified join before on before.id = verified.id join claimed on claimed.id = verified.token_id`);
    row = result.rows[0] as typeof row;
  } catch (error) {
    if (pgErrorCode(error) !== UNIQUE_VIOLATION) throw error;
    throw new ConflictError("Another account has taken this address meanwhile.", {
      cause: error,
    });
  }
  if (!row) throw INVALID_TOKEN();
  if (row.purpose === "change") {
    ctx.waitUntil(
      sendMail(ctx.env, ctx.log, {
        to: row.old_email,
        subject: "Your Edge Music email address was changed",
        text: `Your Edge Music ${ctx.account.name} account now uses ${row.email}; this address no longer signs in to it and gets no more mail about it.\n\nIf it was not you, reset your password with the new address or contact support now.`,
      }),
    );
  }
  return { email: row.email, emailVerified: true as const };
}

/**
 * Moving the account to another address (re-authentication first): a link is mailed to the new
 * address, and the change happens only when it comes back (verifyEmail); the old address gets a
 * notice at once. At most 5 requests an hour, refused ones included. Two round trips: re-authentication with the limit,
 * then one batch that records the link.
 */
export async function requestEmailChange(
  ctx: AuthContext,
  principal: Principal,
  input: ReauthProof & { email: string },
) {
  const { principals } = ctx.account;
  const limit: Limit = {
    key: `email-change:${ctx.account.name}:account:${principal.id}`,
    max: 5,
    windowSeconds: 60 * 60,
  };
  const { first, giveBack } = await reauthenticate(ctx, principal, input, {
    limits: [limit],
    codeWhenEnabled: true,
  });
  const change = await verificationToken(ctx, principal.id, input.email, "change");
  const taken = alias(principals, "taken");
  const results = (await withSecondFactor(
    () =>
      ctx.db.batch([
        ...first,
        ctx.db
          .select({ email: principals.email, taken: taken.id })
          .from(principals)
          .leftJoin(taken, eq(taken.email, input.email))
          .where(eq(principals.id, principal.id)),
        change.insert,
      ] as unknown as [BatchItem<"pg">, ...BatchItem<"pg">[]]),
    giveBack,
  )) as unknown[];
  const [row] = results.at(-2) as Array<{ email: string; taken: string | null }>;
  if (!row) throw new ConflictError("The account no longer exists.");
  if (row.email === input.email) {
    throw new ValidationError([
      { path: "json.email", message: "is the account's address already", code: "same_email" },
    ]);
  }
  if (row.taken) throw new ConflictError("An account with this email already exists.");
  change.mail();
  ctx.waitUntil(
    sendMail(ctx.env, ctx.log, {
      to: row.email,
      subject: "A change of your Edge Music email address was asked for",
      text: `Someone signed in to your Edge Music ${ctx.account.name} account asked to move it to ${input.email}. A link went to that address; nothing changes until it is opened.\n\nIf it was not you, change your password and sign out everywhere now: signing out everywhere (or changing the password) cancels the change, and the link stops working.`,
    }),
  );
  return {
    message: `A link is on its way to ${input.email}; the change happens when it is opened.`,
  };
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
