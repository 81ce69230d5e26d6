import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { UnauthorizedError } from "../../../errors/app-error.ts";
import { decrypt, sha256Hex } from "../../../security/crypto.ts";
import { AUTH_LIMITS, clearQuery, hitLimits, refundQuery } from "../../../security/rate-limit.ts";
import { matchTotp } from "../../../security/totp.ts";
import type { AuthContext } from "../shared.ts";

/** The associated data that binds a sealed TOTP secret to its account. */
export const secretContext = (ctx: Pick<AuthContext, "account">, principalId: string) =>
  `totp:${ctx.account.name}:${principalId}`;

/** Recovery codes are compared case- and separator-insensitively: `abcde-fghij` = `ABCDEFGHIJ`. */
export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");

export interface SecondFactorResult {
  step: number | null;
  forgive: readonly [ReturnType<typeof clearQuery>, ReturnType<typeof refundQuery>];
}

export interface SecondFactorOptions {
  allowRecoveryCode: boolean;
  /** Check a secret that is not enabled yet (the verify step of the set-up). */
  pending?: boolean;
}

/**
 * Accepts a current TOTP code (each at most once: the step is recorded atomically, so two
 * concurrent requests cannot both use one code) or, when allowed, an unused recovery code.
 * Failures count against per-account and per-address limits; a wrong code is a 401.
 * Returns the accepted TOTP step (null for a recovery code) and the statements that give the
 * counters back, which the caller must send first in its next batch.
 */
export async function checkSecondFactor(
  ctx: AuthContext,
  principalId: string,
  code: string,
  options: SecondFactorOptions,
): Promise<SecondFactorResult> {
  const accountLimit = AUTH_LIMITS.codePerAccount(ctx.account.name, principalId);
  const ipLimit = AUTH_LIMITS.codePerIp(ctx.ip);
  // On success the counters are given back by the caller's next batch (no round trip of its own).
  const accepted = (step: number | null): SecondFactorResult => ({
    step,
    forgive: [clearQuery(ctx.db, [accountLimit.key]), refundQuery(ctx.db, [ipLimit.key])],
  });
  const { twoFactor, recoveryCodes } = ctx.account.auth;
  // Counted before the check (parallel guesses cannot outrun the limit), given back on success;
  // the secret is read in the same round trip (used only if no limit is over).
  const [row] = await hitLimits(
    ctx.db,
    [accountLimit, ipLimit],
    ctx.now,
    ctx.db
      .select()
      .from(twoFactor)
      .where(
        and(
          eq(twoFactor.principalId, principalId),
          options.pending ? isNull(twoFactor.enabledAt) : isNotNull(twoFactor.enabledAt),
        ),
      ),
  );
  if (row && /^\d{6}$/.test(code)) {
    const key = await decrypt(
      ctx.env.ENCRYPTION_KEY,
      row.secretCiphertext,
      secretContext(ctx, principalId),
    );
    const step = matchTotp(key, code, ctx.now, row.lastUsedStep);
    if (step !== null) {
      const claimed = await ctx.db
        .update(twoFactor)
        .set({ lastUsedStep: step })
        .where(
          and(
            eq(twoFactor.principalId, principalId),
            or(isNull(twoFactor.lastUsedStep), lt(twoFactor.lastUsedStep, step)),
          ),
        )
        .returning({ step: twoFactor.lastUsedStep });
      if (claimed.length === 1) return accepted(step);
    }
  } else if (row && options.allowRecoveryCode) {
    const used = await ctx.db
      .update(recoveryCodes)
      .set({ usedAt: ctx.now })
      .where(
        and(
          eq(recoveryCodes.principalId, principalId),
          eq(recoveryCodes.codeHash, await sha256Hex(normalizeRecoveryCode(code))),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    if (used.length === 1) return accepted(null);
  }
  throw new UnauthorizedError("The code is wrong or was already used.");
}
