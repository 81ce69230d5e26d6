import { and, desc, eq, sql } from "drizzle-orm";
import { ConflictError, NotFoundError } from "../../errors/app-error.ts";
import type { RequestDeps } from "../../request-deps.ts";
import type { WithAccount } from "../../security/account-kinds.ts";
import {
  appPasswordHash,
  newAppPasswordSecret,
  sealAppPassword,
} from "../../security/app-password-secret.ts";
import type { Principal } from "../../security/principal.ts";
import { MAX_APP_PASSWORDS } from "./schema.ts";

export type AppPasswordContext = Pick<RequestDeps, "db" | "env" | "now"> & WithAccount;

/** How every operation that ends them says so (password change, reset, sign out everywhere). */
export const APP_PASSWORDS_END =
  "Every app password of the account (the Subsonic apps' credentials) ends in the same statement: apps signed in with one must be given a new one.";

/**
 * The statement that ends every app password of an account, to send in the batch of the operation
 * that ends its sessions: no round trip of its own.
 */
export function endAppPasswords(ctx: Pick<RequestDeps, "db"> & WithAccount, principalId: string) {
  const { appPasswords } = ctx.account.auth;
  return ctx.db.delete(appPasswords).where(eq(appPasswords.principalId, principalId));
}

const view = (row: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null }) => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/**
 * A new app password, its secret answered this once. One round trip: the row is inserted only
 * while the account has fewer than MAX_APP_PASSWORDS (409 otherwise), its username read beside.
 */
export async function createAppPassword(
  ctx: AppPasswordContext,
  principal: Principal,
  name: string,
) {
  const { principals, auth } = ctx.account;
  const { appPasswords } = auth;
  const id = crypto.randomUUID();
  const secret = newAppPasswordSecret();
  const [secretHash, secretCiphertext] = await Promise.all([
    appPasswordHash(ctx.env, secret),
    sealAppPassword(ctx.env, ctx.account.name, id, secret),
  ]);
  const count = sql`(select count(*) from ${appPasswords} where ${appPasswords.principalId} = ${principal.id})`;
  const [inserted, account] = await ctx.db.batch([
    ctx.db
      .insert(appPasswords)
      .select((qb) =>
        qb
          // Every column, in the table's order (drizzle's rule for INSERT … SELECT).
          .select({
            id: sql`${id}::uuid`.as("id"),
            principalId: principals.id,
            name: sql`${name}`.as("name"),
            secretHash: sql`${secretHash}`.as("secret_hash"),
            secretCiphertext: sql`${secretCiphertext}`.as("secret_ciphertext"),
            lastUsedAt: sql`null::timestamptz`.as("last_used_at"),
            createdAt: sql`${ctx.now.toISOString()}::timestamptz`.as("created_at"),
          })
          .from(principals)
          .where(and(eq(principals.id, principal.id), sql`${count} < ${MAX_APP_PASSWORDS}`)),
      )
      .returning(),
    ctx.db
      .select({ username: principals.username })
      .from(principals)
      .where(eq(principals.id, principal.id)),
  ]);
  const [row] = inserted;
  if (!row) {
    throw new ConflictError(
      `An account has at most ${MAX_APP_PASSWORDS} app passwords; delete one first.`,
    );
  }
  return { ...view(row), password: secret, username: account[0]?.username ?? "" };
}

/** The account's app passwords, the newest first, never their secrets (one round trip). */
export async function listAppPasswords(ctx: AppPasswordContext, principal: Principal) {
  const { appPasswords } = ctx.account.auth;
  const rows = await ctx.db
    .select({
      id: appPasswords.id,
      name: appPasswords.name,
      createdAt: appPasswords.createdAt,
      lastUsedAt: appPasswords.lastUsedAt,
    })
    .from(appPasswords)
    .where(eq(appPasswords.principalId, principal.id))
    .orderBy(desc(appPasswords.createdAt), desc(appPasswords.id));
  return rows.map(view);
}

/** Ends one app password at once (the next Subsonic call with it fails); 404 for any other id. */
export async function deleteAppPassword(ctx: AppPasswordContext, principal: Principal, id: string) {
  const { appPasswords } = ctx.account.auth;
  const deleted = await ctx.db
    .delete(appPasswords)
    .where(and(eq(appPasswords.id, id), eq(appPasswords.principalId, principal.id)))
    .returning({ id: appPasswords.id });
  if (deleted.length === 0) throw new NotFoundError("No such app password of yours.");
}
