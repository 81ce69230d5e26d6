import { pgErrorCode } from "@edge-music/db";
import { and, eq, inArray, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { sealingKeys } from "../../../env.ts";
import {
  ConflictError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
} from "../../../errors/app-error.ts";
import {
  decrypt,
  keyedHashHex,
  SealingKeyUnavailableError,
  sha256Hex,
} from "../../../security/crypto.ts";
import {
  AUTH_LIMITS,
  clearQuery,
  hitLimits,
  hitOrAbortQuery,
  hitQuery,
  judgeHits,
  type Limit,
  refundQuery,
  withinLimits,
} from "../../../security/rate-limit.ts";
import { matchTotp } from "../../../security/totp.ts";
import type { AuthContext } from "../shared.ts";

/** The associated data that binds a sealed TOTP secret to its account. */
export const secretContext = (ctx: Pick<AuthContext, "account">, principalId: string) =>
  `totp:${ctx.account.name}:${principalId}`;

/** Recovery codes are compared case- and separator-insensitively: `abcd-efgh` = `ABCDEFGH`. */
export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");

/** How a recovery code is stored: a keyed hash (a stolen table cannot be searched for guesses). */
export const recoveryCodeHash = (key: string, normalized: string) =>
  keyedHashHex(key, "recovery-code", normalized);

/**
 * Every form a stored recovery code may have: keyed under each key of the keyring, or (codes made
 * before keyed hashes) plain SHA-256.
 */
async function recoveryCodeCandidates(ctx: AuthContext, code: string): Promise<string[]> {
  const normalized = normalizeRecoveryCode(code);
  const { current, previous } = sealingKeys(ctx.env);
  return await Promise.all([
    ...[current, ...previous].map((key) => recoveryCodeHash(key, normalized)),
    sha256Hex(normalized),
  ]);
}

/** SQLSTATE of `assert_claimed` (migration 0010): another request used the code first. */
export const ALREADY_USED = "ESUSE";

const WRONG_CODE = "The code is wrong or was already used.";

/**
 * Statements to send FIRST in the caller's next batch: the one that uses the code up (it aborts
 * the whole batch when a concurrent request used the same code first) and the ones that give the
 * attempt counters back. Send that batch through `withSecondFactor`.
 */
export type SecondFactorProof = readonly [BatchItem<"pg">, ...BatchItem<"pg">[]];

export interface SecondFactorOptions {
  allowRecoveryCode: boolean;
  /**
   * Which secret the code must match: an active one (sign-in, turning 2FA off) or one that is
   * not active yet (the verify step of the set-up).
   */
  secret: "enabled" | "pending";
  /** 409 instead of 401 when there is no secret in that state (the set-up and turning it off). */
  conflictWhenAbsent?: boolean;
}

/**
 * Checks a current TOTP code (each step at most once) or, when allowed, an unused recovery code,
 * in one round trip: the attempt is counted against per-account and per-address limits BEFORE it
 * is judged (parallel guesses cannot outrun the limit) and the secret is read with it. A wrong
 * code is a 401. A right one is not yet used up: that happens in the caller's next batch, which
 * starts with the returned proof, so using the code and what it unlocks commit together or not
 * at all (two requests with one code: one wins, the other's batch aborts and answers 401).
 */
export async function checkSecondFactor(
  ctx: AuthContext,
  principalId: string,
  code: string,
  options: SecondFactorOptions,
): Promise<SecondFactorProof> {
  const [row] = await hitLimits(
    ctx.db,
    secondFactorLimits(ctx, principalId),
    ctx.now,
    ctx.db
      .select()
      .from(ctx.account.auth.twoFactor)
      .where(eq(ctx.account.auth.twoFactor.principalId, principalId)),
  );
  const pending = options.secret === "pending";
  if (options.conflictWhenAbsent) {
    if (pending && !row) throw new ConflictError("Start with 2fa/enable to get a secret first.");
    if (pending && row?.enabledAt) throw new ConflictError("2FA is already enabled.");
    if (!pending && !row?.enabledAt) throw new ConflictError("2FA is not enabled.");
  }
  return await proveSecondFactor(ctx, principalId, row, code, options);
}

/** The attempt limits of second-factor codes: per account, per client network. */
export const secondFactorLimits = (ctx: AuthContext, principalId: string) => [
  AUTH_LIMITS.codePerAccount(ctx.account.name, principalId),
  AUTH_LIMITS.codePerIp(ctx.ip),
];

/**
 * An account's sign-in data with its 2FA secret, found by `where` (its email at login, its id at
 * re-authentication): what a password and a code are checked against, read with the attempt's
 * count.
 */
export const accountWithSecretQuery = (ctx: AuthContext, where: SQL | undefined) => {
  const { principals, auth } = ctx.account;
  return ctx.db
    .select({
      id: principals.id,
      email: principals.email,
      passwordHash: principals.passwordHash,
      secretCiphertext: auth.twoFactor.secretCiphertext,
      lastUsedStep: auth.twoFactor.lastUsedStep,
      enabledAt: auth.twoFactor.enabledAt,
    })
    .from(principals)
    .leftJoin(auth.twoFactor, eq(auth.twoFactor.principalId, principals.id))
    .where(where);
};

/** What a code is checked against: the account's 2FA row, as read with the attempt's count. */
export interface SecretRow {
  secretCiphertext: string;
  lastUsedStep: number | null;
  enabledAt: Date | null;
}

/**
 * The code checked against a secret already read (after its attempt was counted and judged):
 * 401 when wrong; else the proof to send first in the caller's next batch.
 */
export async function proveSecondFactor(
  ctx: AuthContext,
  principalId: string,
  row: SecretRow | undefined,
  code: string,
  options: Pick<SecondFactorOptions, "allowRecoveryCode" | "secret">,
): Promise<SecondFactorProof> {
  const claim = await codeClaim(ctx, principalId, row, code, options);
  if (!claim) throw new UnauthorizedError(WRONG_CODE);
  return [claimStatement(ctx, claim), ...forgiveCode(ctx, principalId)];
}

/**
 * A code sent with a password that was just verified (sign-in, re-authentication). Its attempt is
 * counted only now, so whoever does not know the password never spends the owner's code attempts
 * (nor is told anything by a 429). A wrong code is counted at once, in one round trip with
 * `alsoOnFailure` (what the caller gives back of the password's counters), and answers 401, or
 * 429 past the limit. A right one answers the proof to send first in the caller's next batch: it
 * counts the attempt and aborts that batch past the limit (429), so of codes sent in parallel only
 * as many as the limit allows ever get a verdict, right or wrong. Send that batch through
 * `withSecondFactor`.
 */
export async function proveCodeAfterPassword(
  ctx: AuthContext,
  principalId: string,
  row: SecretRow | undefined,
  code: string,
  options: Pick<SecondFactorOptions, "allowRecoveryCode" | "secret">,
  alsoOnFailure: readonly BatchItem<"pg">[],
): Promise<SecondFactorProof> {
  const { db } = ctx;
  const limits = secondFactorLimits(ctx, principalId);
  let claim: SQL | undefined;
  try {
    claim = await codeClaim(ctx, principalId, row, code, options);
  } catch (error) {
    if (alsoOnFailure.length > 0) await db.batch(asBatch(alsoOnFailure));
    throw error;
  }
  if (!claim) {
    const results = (await db.batch(
      asBatch([...alsoOnFailure, ...limits.map((limit) => hitQuery(db, limit, ctx.now))]),
    )) as unknown[];
    judgeHits(
      limits,
      results.slice(alsoOnFailure.length) as Parameters<typeof judgeHits>[1],
      ctx.now,
    );
    throw new UnauthorizedError(WRONG_CODE);
  }
  const [accountHit, ...otherHits] = limits.map((limit) => hitOrAbortQuery(db, limit, ctx.now));
  // The hits first: past the limit the batch aborts before the claim tells anything.
  return [
    accountHit as BatchItem<"pg">,
    ...otherHits,
    claimStatement(ctx, claim),
    ...forgiveCode(ctx, principalId),
  ];
}

const asBatch = (items: readonly BatchItem<"pg">[]) =>
  items as unknown as [BatchItem<"pg">, ...BatchItem<"pg">[]];

/** A right code gives its attempt back: the account's count is cleared, the network's refunded. */
function forgiveCode(ctx: AuthContext, principalId: string) {
  const [accountLimit, ipLimit] = secondFactorLimits(ctx, principalId) as [Limit, Limit];
  return [clearQuery(ctx.db, [accountLimit.key]), refundQuery(ctx.db, [ipLimit.key])] as const;
}

/** Uses the claim up, aborting the batch (ESUSE) when another request used it first. */
const claimStatement = (ctx: AuthContext, claim: SQL) =>
  ctx.db.execute(sql`with claimed as (${claim}) select assert_claimed(count(*)) from claimed`);

/**
 * The update that uses the code up (a TOTP step, or an unused recovery code where allowed), or
 * undefined when the code is wrong or there is no secret in the state asked for.
 */
async function codeClaim(
  ctx: AuthContext,
  principalId: string,
  row: SecretRow | undefined,
  code: string,
  options: Pick<SecondFactorOptions, "allowRecoveryCode" | "secret">,
): Promise<SQL | undefined> {
  const pending = options.secret === "pending";
  if (!row || (row.enabledAt === null) !== pending) return undefined;
  const { twoFactor, recoveryCodes } = ctx.account.auth;
  if (/^\d{6}$/.test(code)) {
    let key: Uint8Array;
    try {
      key = await decrypt(
        sealingKeys(ctx.env),
        row.secretCiphertext,
        secretContext(ctx, principalId),
      );
    } catch (error) {
      if (!(error instanceof SealingKeyUnavailableError)) throw error;
      // The key that sealed it was retired too early (ENCRYPTION_KEYS_PREVIOUS): an operator's
      // fault, which the person cannot fix by trying again with another code.
      ctx.log.error("a 2FA secret cannot be opened with the configured keys", {
        principalId,
        kind: ctx.account.name,
      });
      throw new ServiceUnavailableError("2FA codes cannot be checked right now.");
    }
    const step = matchTotp(key, code, ctx.now, row.lastUsedStep);
    // The step is claimed only if no later one was used in the meantime (and the secret is
    // still in the state this check saw).
    if (step === null) return undefined;
    return sql`update ${twoFactor} set ${sql.identifier(twoFactor.lastUsedStep.name)} = ${step}
      where ${and(
        eq(twoFactor.principalId, principalId),
        pending ? isNull(twoFactor.enabledAt) : sql`${twoFactor.enabledAt} is not null`,
        or(isNull(twoFactor.lastUsedStep), lt(twoFactor.lastUsedStep, step)),
      )} returning 1`;
  }
  if (!options.allowRecoveryCode) return undefined;
  const codeHashes = await recoveryCodeCandidates(ctx, code);
  // A recovery code that does not exist claims nothing: the batch aborts as for a used one.
  return sql`update ${recoveryCodes} set ${sql.identifier(recoveryCodes.usedAt.name)} = ${ctx.now.toISOString()}::timestamptz
    where ${and(
      eq(recoveryCodes.principalId, principalId),
      inArray(recoveryCodes.codeHash, codeHashes),
      isNull(recoveryCodes.usedAt),
    )} returning 1`;
}

/**
 * Sends the batch that starts with a second-factor proof; a code that a concurrent request used
 * first answers 401, like a wrong one, and a code over its limit 429 (nothing of the batch is
 * written either way). `giveBack`, when the limit aborted the batch, sends again what the batch
 * gave back and must not lose with it (a right password's sign-in counters), then the 429 stands.
 */
export async function withSecondFactor<T>(
  send: () => Promise<T>,
  giveBack?: () => Promise<unknown>,
): Promise<T> {
  try {
    return await withinLimits(send);
  } catch (error) {
    if (pgErrorCode(error) === ALREADY_USED) throw new UnauthorizedError(WRONG_CODE);
    if (error instanceof RateLimitedError && giveBack) await giveBack();
    throw error;
  }
}
