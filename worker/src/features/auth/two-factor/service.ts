import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { and, eq, isNull } from "drizzle-orm";
import { sealingKeys } from "../../../env.ts";
import { ConflictError } from "../../../errors/app-error.ts";
import { encrypt } from "../../../security/crypto.ts";
import { base32Secret, totpUri } from "../../../security/totp.ts";
import { accountView, toAccount } from "../session/service.ts";
import type { AuthContext } from "../shared.ts";
import { qrCodePngBase64 } from "./qr-png.ts";
import {
  checkSecondFactor,
  normalizeRecoveryCode,
  recoveryCodeHash,
  secretContext,
  withSecondFactor,
} from "./second-factor.ts";

const RECOVERY_CODES = 10;

/**
 * Step 1: a new secret, stored sealed and not active until a code proves the authenticator has
 * it. Calling it again before verifying replaces the pending secret.
 */
export async function enableTwoFactor(ctx: AuthContext, principalId: string) {
  const key = crypto.getRandomValues(new Uint8Array(20));
  const secretCiphertext = await encrypt(
    sealingKeys(ctx.env),
    key,
    secretContext(ctx, principalId),
  );
  const { twoFactor } = ctx.account.auth;
  // Only a secret that is not active yet may be replaced: a concurrent verify that turned 2FA on
  // in the meantime must not be undone.
  // One batch: the account (for the label) and the secret.
  const [view, written] = await ctx.db.batch([
    accountView(ctx, principalId),
    ctx.db
      .insert(twoFactor)
      .values({ principalId, secretCiphertext })
      .onConflictDoUpdate({
        target: twoFactor.principalId,
        set: { secretCiphertext, enabledAt: null, lastUsedStep: null, updatedAt: ctx.now },
        setWhere: isNull(twoFactor.enabledAt),
      })
      .returning({ principalId: twoFactor.principalId }),
  ]);
  if (written.length === 0) throw new ConflictError("2FA is already enabled; disable it first.");
  const account = toAccount(ctx, view[0]);
  // Users are known by their email; an artist's email is never handed out, so the username.
  const label = "email" in account ? account.email : account.username;
  const otpauthUri = totpUri(label, key);
  return { qrCode: await qrCodePngBase64(otpauthUri), otpauthUri, secret: base32Secret(key) };
}

/** Step 2: a code from the authenticator turns 2FA on and yields 10 recovery codes, shown once. */
export async function verifyTwoFactor(ctx: AuthContext, principalId: string, code: string) {
  const { twoFactor, recoveryCodes } = ctx.account.auth;
  const proof = await checkSecondFactor(ctx, principalId, code, {
    allowRecoveryCode: false,
    secret: "pending",
    conflictWhenAbsent: true,
  });
  // 80 random bits each (16 base32 characters), shown as four groups of four.
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(10)));
    return raw.match(/.{4}/g)?.join("-") ?? raw;
  });
  const hashes = await Promise.all(
    codes.map((c) => recoveryCodeHash(ctx.env.ENCRYPTION_KEY, normalizeRecoveryCode(c))),
  );
  // One batch (one transaction), the second round trip. The proof claims the code on the
  // secret that is still pending, so of two verifies racing only one commits: the other's batch
  // aborts (401) and its codes are neither deleted nor written.
  const { db } = ctx;
  await withSecondFactor(() =>
    db.batch([
      ...proof,
      db
        .update(twoFactor)
        .set({ enabledAt: ctx.now })
        .where(and(eq(twoFactor.principalId, principalId), isNull(twoFactor.enabledAt))),
      db.delete(recoveryCodes).where(eq(recoveryCodes.principalId, principalId)),
      db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ principalId, codeHash }))),
    ]),
  );
  return { twoFactorEnabled: true as const, recoveryCodes: codes };
}

/** Turning 2FA off needs a current TOTP code (not a recovery code). */
export async function disableTwoFactor(ctx: AuthContext, principalId: string, code: string) {
  const proof = await checkSecondFactor(ctx, principalId, code, {
    allowRecoveryCode: false,
    secret: "enabled",
    conflictWhenAbsent: true,
  });
  const { twoFactor, recoveryCodes } = ctx.account.auth;
  // One batch, the second round trip: the code used, both removed, or nothing.
  await withSecondFactor(() =>
    ctx.db.batch([
      ...proof,
      ctx.db.delete(recoveryCodes).where(eq(recoveryCodes.principalId, principalId)),
      ctx.db.delete(twoFactor).where(eq(twoFactor.principalId, principalId)),
    ]),
  );
  return { twoFactorEnabled: false as const };
}
