// Re-authentication before a sensitive change (turning 2FA on or off, new recovery codes): the
// signed-in caller proves again to be the account's owner, in the change's first round trip.
import { eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  ConflictError,
  ForbiddenError,
  ReauthenticationRequiredError,
  ValidationError,
} from "../../errors/app-error.ts";
import { verifyPassword } from "../../security/password.ts";
import type { Principal } from "../../security/principal.ts";
import { hitQuery, judgeHits, type Limit, signInLimits } from "../../security/rate-limit.ts";
import type { AuthContext } from "./shared.ts";
import {
  accountWithSecretQuery,
  proveCodeAfterPassword,
  type SecondFactorProof,
} from "./two-factor/second-factor.ts";

/** How recent a sign-in proves the owner of an account without a password (OAuth only). */
export const REAUTH_FRESH_SECONDS = 5 * 60;

export interface ReauthProof {
  password?: string | undefined;
  /** A current TOTP code (not a recovery code). */
  code?: string | undefined;
}

export interface ReauthOptions {
  /** The change also needs a current TOTP code, whatever the account (turning 2FA off). */
  codeRequired?: boolean;
  /** The change also needs a current TOTP code when the account has 2FA on (email, deletion). */
  codeWhenEnabled?: boolean;
  /**
   * The specification's body has no password (turning 2FA on or off): within
   * REAUTH_FRESH_SECONDS of signing in, the session proves the owner without it; later, 403
   * REAUTHENTICATION_REQUIRED tells the client to send it.
   */
  passwordWhenStale?: boolean;
  /**
   * The change's own limits (how often it may be asked for), counted in the same round trip and
   * judged once the caller is proven: a 429 then still gives the sign-in counters back.
   */
  limits?: Limit[];
}

/** Added to REAUTH_RULES where the specification's body has no password (2FA on and off). */
export const REAUTH_PASSWORD_WHEN_STALE = `The specification's body (no \`password\`) is accepted within ${REAUTH_FRESH_SECONDS / 60} minutes of signing in (the session's start: a refresh does not renew it); later, an account with a password that sends none gets 403 \`REAUTHENTICATION_REQUIRED\` and sends the request again with \`password\`.`;

/** Added to REAUTH_RULES where a change also needs the second factor of an account that has it. */
export const REAUTH_CODE_WHEN_ENABLED =
  "An account with 2FA on also sends a current TOTP `code` (not a recovery code; else 400 `required`).";

export const REAUTH_RULES = `Re-authentication: an account with a password sends \`password\` (a wrong one counts as a failed sign-in and answers 400 \`wrong_password\`); an account that signs in only through an identity provider sends a current TOTP \`code\` when it has 2FA, or acts within ${REAUTH_FRESH_SECONDS / 60} minutes of signing in (else 403: sign in again).`;

/**
 * One round trip: the attempt counted against the sign-in limits, the account, its 2FA secret
 * and the session's start read. Then the password hash and the code are checked here (a code is
 * counted only once the password is right). Answers the statements the change must send FIRST in
 * its next batch through `withSecondFactor`, with `giveBack` (the counters given back; the code
 * counted and used up, aborting that batch past its limit or if another request used it first).
 */
export async function reauthenticate(
  ctx: AuthContext,
  principal: Principal,
  proof: ReauthProof,
  options: ReauthOptions = {},
): Promise<{ first: BatchItem<"pg">[]; giveBack: () => Promise<unknown> }> {
  const { db } = ctx;
  const { principals, auth } = ctx.account;
  const emailOf = sql`(select ${principals.email} from ${principals} where ${principals.id} = ${principal.id})`;
  const signInCounters = signInLimits(
    ctx.account.name,
    sql`coalesce(${emailOf}, ${principal.id})`,
    ctx.ip,
  );
  const loginLimits = signInCounters.limits;
  const changeLimits = options.limits ?? [];
  // A code is counted only once the password is checked (proveCodeAfterPassword).
  const limits = [...loginLimits, ...changeLimits];
  const results = (await db.batch([
    ...limits.map((limit) => hitQuery(db, limit, ctx.now)),
    accountWithSecretQuery(ctx, eq(principals.id, principal.id)),
    db
      .select({ createdAt: auth.sessions.createdAt })
      .from(auth.sessions)
      .where(eq(auth.sessions.id, principal.sessionId)),
  ] as unknown as [BatchItem<"pg">, ...BatchItem<"pg">[]])) as unknown[];
  const hits = results.slice(0, limits.length) as Parameters<typeof judgeHits>[1];
  signInCounters.judge(hits.slice(0, loginLimits.length), ctx.now);
  const [row] = results.at(-2) as Awaited<ReturnType<typeof accountWithSecretQuery>>;
  const [session] = results.at(-1) as Array<{ createdAt: Date }>;
  if (!row || !session) throw new ForbiddenError("Sign in again.");
  if (options.codeRequired && row.enabledAt === null)
    throw new ConflictError("2FA is not enabled.");
  const forgive = signInCounters.forgive(db, row.email);
  const fresh = session.createdAt.getTime() >= ctx.now.getTime() - REAUTH_FRESH_SECONDS * 1000;
  const waived = options.passwordWhenStale === true && fresh && !proof.password;
  if (row.passwordHash && !waived) {
    if (!proof.password && options.passwordWhenStale) {
      await db.batch(forgive);
      throw new ReauthenticationRequiredError(
        `Confirm it is you: send the account's password (\`password\`); without it this works only within ${REAUTH_FRESH_SECONDS / 60} minutes of signing in.`,
      );
    }
    if (!proof.password) {
      throw new ValidationError([
        {
          path: "json.password",
          message: "required: this account has a password",
          code: "required",
        },
      ]);
    }
    if (!(await verifyPassword(row.passwordHash, proof.password))) {
      throw new ValidationError([
        { path: "json.password", message: "is not the current password", code: "wrong_password" },
      ]);
    }
  }
  const needsCode =
    options.codeRequired === true || (options.codeWhenEnabled === true && row.enabledAt !== null);
  let codeProof: SecondFactorProof | undefined;
  // Once the code is handed over, its check gives the counters back itself when it fails.
  let handedOver = false;
  try {
    judgeHits(changeLimits, hits.slice(loginLimits.length), ctx.now);
    if (proof.code && row.enabledAt && row.secretCiphertext) {
      handedOver = true;
      codeProof = await proveCodeAfterPassword(
        ctx,
        principal.id,
        { ...row, secretCiphertext: row.secretCiphertext },
        proof.code,
        { allowRecoveryCode: false, secret: "enabled" },
        forgive,
      );
    } else if (needsCode) {
      throw new ValidationError([
        {
          path: "json.code",
          message: "required: a current code from the authenticator",
          code: "required",
        },
      ]);
    } else if (!row.passwordHash && !fresh) {
      throw new ForbiddenError(
        `Confirm it is you: sign in again through your identity provider and retry within ${REAUTH_FRESH_SECONDS / 60} minutes${row.enabledAt ? ", or send a current 2FA code" : ""}.`,
      );
    }
  } catch (error) {
    // The password was right (or not asked for): its counters are given back all the same.
    if (!handedOver) await db.batch(forgive);
    throw error;
  }
  // A code sent where none was checked was no attempt: it was never counted.
  // Past the code's limit the change's batch aborts with `forgive` in it: send it again then.
  return { first: [...(codeProof ?? []), ...forgive], giveBack: () => db.batch(forgive) };
}
