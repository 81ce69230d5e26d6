import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { and, eq, isNull, sql } from "drizzle-orm";
import { ConflictError } from "../../../errors/app-error.ts";
import { encrypt, sha256Hex } from "../../../security/crypto.ts";
import { base32Secret, totpUri } from "../../../security/totp.ts";
import { accountView, getAccount, toAccount } from "../session/service.ts";
import type { AuthContext } from "../shared.ts";
import { qrCodePngBase64 } from "./qr-png.ts";
import { checkSecondFactor, normalizeRecoveryCode, secretContext } from "./second-factor.ts";

const RECOVERY_CODES = 10;

/**
 * Step 1: a new secret, stored sealed and not active until a code proves the authenticator has
 * it. Calling it again before verifying replaces the pending secret.
 */
export async function enableTwoFactor(ctx: AuthContext, principalId: string) {
  const key = crypto.getRandomValues(new Uint8Array(20));
  const secretCiphertext = await encrypt(
    ctx.env.ENCRYPTION_KEY,
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
  const [secret] = await ctx.db
    .select({ enabledAt: twoFactor.enabledAt })
    .from(twoFactor)
    .where(eq(twoFactor.principalId, principalId));
  if (!secret) throw new ConflictError("Start with 2fa/enable to get a secret first.");
  if (secret.enabledAt) throw new ConflictError("2FA is already enabled.");
  const { forgive } = await checkSecondFactor(ctx, principalId, code, {
    allowRecoveryCode: false,
    pending: true,
  });
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(7))).slice(
      0,
      10,
    );
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  const hashes = await Promise.all(codes.map((c) => sha256Hex(normalizeRecoveryCode(c))));
  // One batch (one transaction). Once: of two verifies racing, the second finds 2FA already on,
  // changes nothing, and its codes are neither deleted nor written (the conditions below hold
  // only in the batch whose update turned 2FA on).
  const { db } = ctx;
  const enabledNow = sql`exists (select from ${twoFactor} where ${twoFactor.principalId} = ${principalId} and ${twoFactor.enabledAt} = ${ctx.now.toISOString()}::timestamptz)`;
  const [, , enabled] = await db.batch([
    ...forgive,
    db
      .update(twoFactor)
      .set({ enabledAt: ctx.now })
      .where(and(eq(twoFactor.principalId, principalId), isNull(twoFactor.enabledAt)))
      .returning({ principalId: twoFactor.principalId }),
    db.delete(recoveryCodes).where(and(eq(recoveryCodes.principalId, principalId), enabledNow)),
    db.execute(sql`
      insert into ${recoveryCodes} (${sql.identifier(recoveryCodes.principalId.name)}, ${sql.identifier(recoveryCodes.codeHash.name)})
      select ${principalId}::uuid, hash from unnest(${sql.param(hashes)}::text[]) as hash
      where ${enabledNow}`),
  ]);
  if (enabled.length === 0) throw new ConflictError("2FA is already enabled.");
  return { twoFactorEnabled: true as const, recoveryCodes: codes };
}

/** Turning 2FA off needs a current TOTP code (not a recovery code). */
export async function disableTwoFactor(ctx: AuthContext, principalId: string, code: string) {
  const account = await getAccount(ctx, principalId);
  if (!account.twoFactorEnabled) throw new ConflictError("2FA is not enabled.");
  const { forgive } = await checkSecondFactor(ctx, principalId, code, { allowRecoveryCode: false });
  const { twoFactor, recoveryCodes } = ctx.account.auth;
  // One batch: both or neither.
  await ctx.db.batch([
    ...forgive,
    ctx.db.delete(recoveryCodes).where(eq(recoveryCodes.principalId, principalId)),
    ctx.db.delete(twoFactor).where(eq(twoFactor.principalId, principalId)),
  ]);
  return { twoFactorEnabled: false as const };
}
