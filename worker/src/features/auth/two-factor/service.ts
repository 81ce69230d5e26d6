import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { and, eq, isNull, ne } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { sealingKeys } from "../../../env.ts";
import { ConflictError } from "../../../errors/app-error.ts";
import { encrypt } from "../../../security/crypto.ts";
import type { Principal } from "../../../security/principal.ts";
import { base32Secret, totpUri } from "../../../security/totp.ts";
import { endEmailLinks } from "../email/service.ts";
import { type ReauthProof, reauthenticate } from "../reauth.ts";
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
 * Step 1 (after re-authentication): a new secret, stored sealed and not active until a code
 * proves the authenticator has it. Calling it again before verifying replaces the pending secret.
 */
export async function enableTwoFactor(ctx: AuthContext, principal: Principal, proof: ReauthProof) {
  const principalId = principal.id;
  const { first } = await reauthenticate(ctx, principal, proof, { passwordWhenStale: true });
  const key = crypto.getRandomValues(new Uint8Array(20));
  const secretCiphertext = await encrypt(
    sealingKeys(ctx.env),
    key,
    secretContext(ctx, principalId),
  );
  const { twoFactor } = ctx.account.auth;
  // Only a secret that is not active yet may be replaced: a concurrent verify that turned 2FA on
  // in the meantime must not be undone.
  // One batch: the counters given back, the account (for the label) and the secret.
  const results = (await ctx.db.batch([
    ...first,
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
  ] as unknown as [BatchItem<"pg">, ...BatchItem<"pg">[]])) as unknown[];
  const view = results.at(-2) as Awaited<ReturnType<typeof accountView>>;
  const written = results.at(-1) as unknown[];
  if (written.length === 0) throw new ConflictError("2FA is already enabled; disable it first.");
  const account = toAccount(ctx, view[0]);
  // Users are known by their email; an artist's email is never handed out, so the username.
  const label = "email" in account ? account.email : account.username;
  const otpauthUri = totpUri(label, key);
  return { qrCode: await qrCodePngBase64(otpauthUri), otpauthUri, secret: base32Secret(key) };
}

/** Ten new recovery codes (80 bits each, four groups of four) and how they are stored. */
async function newRecoveryCodes(ctx: AuthContext, principalId: string) {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(10)));
    return raw.match(/.{4}/g)?.join("-") ?? raw;
  });
  const hashes = await Promise.all(
    codes.map((c) => recoveryCodeHash(ctx.env.ENCRYPTION_KEY, normalizeRecoveryCode(c))),
  );
  const { recoveryCodes } = ctx.account.auth;
  return {
    codes,
    replace: [
      ctx.db.delete(recoveryCodes).where(eq(recoveryCodes.principalId, principalId)),
      ctx.db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ principalId, codeHash }))),
    ] as const,
  };
}

/**
 * A 2FA change signs every other session of the account out and ends every link mailed for its
 * address (an email change asked with a stolen password dies with it).
 */
const endOtherSessions = (ctx: AuthContext, principal: Principal) =>
  [
    ctx.db
      .delete(ctx.account.auth.sessions)
      .where(
        and(
          eq(ctx.account.auth.sessions.principalId, principal.id),
          ne(ctx.account.auth.sessions.id, principal.sessionId),
        ),
      ),
    endEmailLinks(ctx, principal.id),
  ] as const;

/**
 * Step 2: a code from the authenticator turns 2FA on (the password was proven at step 1) and
 * yields 10 recovery codes, shown once; every other session of the account ends.
 */
export async function verifyTwoFactor(ctx: AuthContext, principal: Principal, code: string) {
  const principalId = principal.id;
  const { twoFactor } = ctx.account.auth;
  const proof = await checkSecondFactor(ctx, principalId, code, {
    allowRecoveryCode: false,
    secret: "pending",
    conflictWhenAbsent: true,
  });
  const fresh = await newRecoveryCodes(ctx, principalId);
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
      ...fresh.replace,
      ...endOtherSessions(ctx, principal),
    ]),
  );
  return { twoFactorEnabled: true as const, recoveryCodes: fresh.codes };
}

/**
 * Turning 2FA off: re-authentication with a current TOTP code (not a recovery code) and, for an
 * account with a password, the password. Every other session of the account ends.
 */
export async function disableTwoFactor(ctx: AuthContext, principal: Principal, proof: ReauthProof) {
  const { first, giveBack } = await reauthenticate(ctx, principal, proof, {
    codeRequired: true,
    passwordWhenStale: true,
  });
  const { twoFactor, recoveryCodes } = ctx.account.auth;
  // One batch, the second round trip: the code used, both removed, or nothing.
  await withSecondFactor(
    () =>
      ctx.db.batch([
        ...first,
        ctx.db.delete(recoveryCodes).where(eq(recoveryCodes.principalId, principal.id)),
        ctx.db.delete(twoFactor).where(eq(twoFactor.principalId, principal.id)),
        ...endOtherSessions(ctx, principal),
      ] as unknown as [BatchItem<"pg">, ...BatchItem<"pg">[]]),
    giveBack,
  );
  return { twoFactorEnabled: false as const };
}

/**
 * New recovery codes (the old ones stop working): re-authentication with a current TOTP code and,
 * for an account with a password, the password. Every other session of the account ends.
 */
export async function regenerateRecoveryCodes(
  ctx: AuthContext,
  principal: Principal,
  proof: ReauthProof,
) {
  const { first, giveBack } = await reauthenticate(ctx, principal, proof, { codeRequired: true });
  const fresh = await newRecoveryCodes(ctx, principal.id);
  await withSecondFactor(
    () =>
      ctx.db.batch([...first, ...fresh.replace, ...endOtherSessions(ctx, principal)] as unknown as [
        BatchItem<"pg">,
        ...BatchItem<"pg">[],
      ]),
    giveBack,
  );
  return { twoFactorEnabled: true as const, recoveryCodes: fresh.codes };
}
