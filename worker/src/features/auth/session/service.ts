import { pgConstraint, pgErrorCode, UNIQUE_VIOLATION } from "@edge-music/db";
import { eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { ConflictError, NotFoundError, UnauthorizedError } from "../../../errors/app-error.ts";
import type { SessionTokens } from "../../../security/cookies.ts";
import { hashPassword, spendVerifyTime, verifyPassword } from "../../../security/password.ts";
import {
  AUTH_LIMITS,
  type Hit,
  hitLimits,
  hitQuery,
  signInLimits,
} from "../../../security/rate-limit.ts";
import { sessionInsert, signSessionTokens } from "../../../security/sessions.ts";
import { verificationToken } from "../email/service.ts";
import type { AuthContext } from "../shared.ts";
import {
  accountWithSecretQuery,
  proveCodeAfterPassword,
  withSecondFactor,
} from "../two-factor/second-factor.ts";

export interface UserAccount {
  id: string;
  username: string;
  email: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  createdAt: string;
}
export interface ArtistAccount {
  id: string;
  username: string;
  bio: string;
  avatar: string | null;
  backgroundImage: string | null;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  createdAt: string;
}
export type Account = UserAccount | ArtistAccount;

/** The signed-in account as its owner sees it: never a password hash, never an artist's email. */
export async function getAccount(ctx: Pick<AuthContext, "db" | "account">, id: string) {
  return toAccount(ctx, (await accountView(ctx, id))[0]);
}

/** The account's row and its 2FA state, as a query (to await, or to send in a batch). */
export function accountView(ctx: Pick<AuthContext, "db" | "account">, id: string) {
  const { principals, auth } = ctx.account;
  return ctx.db
    .select({
      principal: principals,
      twoFactorEnabled: sql<boolean>`${auth.twoFactor.enabledAt} is not null`,
    })
    .from(principals)
    .leftJoin(auth.twoFactor, eq(auth.twoFactor.principalId, principals.id))
    .where(eq(principals.id, id));
}

export function toAccount(
  ctx: Pick<AuthContext, "account">,
  row: Awaited<ReturnType<typeof accountView>>[number] | undefined,
): Account {
  if (!row) throw new NotFoundError("The account no longer exists.");
  const p = row.principal as typeof row.principal & Partial<Omit<ArtistAccount, "id">>;
  const common = {
    id: p.id,
    username: p.username,
    displayName: p.displayName,
    emailVerified: p.emailVerifiedAt !== null,
    twoFactorEnabled: row.twoFactorEnabled === true,
    createdAt: p.createdAt.toISOString(),
  };
  if (ctx.account.name === "user") return { ...common, email: p.email } satisfies UserAccount;
  return {
    ...common,
    bio: p.bio ?? "",
    avatar: p.avatar ?? null,
    backgroundImage: p.backgroundImage ?? null,
  } satisfies ArtistAccount;
}

export interface RegisterInput {
  username: string;
  email: string;
  password: string;
}

/** The account and its first session in one transaction: a failure leaves neither. */
export async function register(ctx: AuthContext, input: RegisterInput) {
  const { principals } = ctx.account;
  await hitLimits(ctx.db, [AUTH_LIMITS.hashingPerIp(ctx.ip)], ctx.now);
  const passwordHash = await hashPassword(input.password, ctx.env.PASSWORD_HASH_COST);
  // The account, its first session and its view in one batch (one round trip, one transaction);
  // the id is made here, random like the column's default.
  const id = crypto.randomUUID();
  const refreshTokenId = crypto.randomUUID();
  // The address is unproven until the link mailed to it comes back (email/verify).
  const verification = await verificationToken(ctx, id, input.email);
  try {
    const [, [session], view] = await ctx.db.batch([
      ctx.db
        .insert(principals)
        .values({ id, username: input.username, email: input.email, passwordHash }),
      sessionInsert(ctx, id, refreshTokenId),
      accountView(ctx, id),
      verification.insert,
    ]);
    if (!session) throw new Error("session insert returned no row");
    verification.mail();
    const tokens = await signSessionTokens(ctx, id, session.id, refreshTokenId);
    return { account: toAccount(ctx, view[0]), tokens };
  } catch (error) {
    if (pgErrorCode(error) !== UNIQUE_VIOLATION) throw error;
    const field = pgConstraint(error)?.includes("email") ? "email" : "username";
    throw new ConflictError(`An account with this ${field} already exists.`, { cause: error });
  }
}

export type LoginResult =
  | { status: "signed-in"; account: Account; tokens: SessionTokens }
  | { status: "two-factor-required" };

export interface LoginInput {
  email: string;
  password: string;
  code?: string | undefined;
}

/**
 * Password first, then (for 2FA accounts) the code. The same 401 for an unknown email, an account
 * without a password (OAuth only) and a wrong password, in the same time: no account enumeration.
 * A code counts against the code limits only once its password is right (whoever guesses the
 * password cannot spend the owner's code attempts and lock the owner out). Two round trips
 * whatever the account: the attempt counted with the account (and its 2FA secret) read; after the
 * password hash, the counters given back, the code counted and used up, and the session opened in
 * one batch.
 */
export async function login(ctx: AuthContext, input: LoginInput): Promise<LoginResult> {
  const { db } = ctx;
  const { principals } = ctx.account;
  const signInCounters = signInLimits(ctx.account.name, input.email, ctx.ip);
  const loginLimits = signInCounters.limits;
  // Counted before the check, so parallel guesses cannot outrun the limit; given back on success.
  // The account and its secret are read in the same round trip.
  const [hits, account] = splitLast(
    (await db.batch([
      ...loginLimits.map((limit) => hitQuery(db, limit, ctx.now)),
      accountWithSecretQuery(ctx, eq(principals.email, input.email)),
    ] as unknown as [BatchItem<"pg">, ...BatchItem<"pg">[]])) as unknown[],
  );
  signInCounters.judge(hits as Hit[], ctx.now);
  const [row] = account as Awaited<ReturnType<typeof accountWithSecretQuery>>;
  const valid = row?.passwordHash
    ? await verifyPassword(row.passwordHash, input.password)
    : await spendVerifyTime(input.password, ctx.env.PASSWORD_HASH_COST);
  if (!row || !valid) throw new UnauthorizedError("The email or the password is wrong.");
  // The password was right: not a failed sign-in, whatever the second factor says.
  const forgive = signInCounters.forgive(db, input.email);
  if (row.enabledAt && row.secretCiphertext) {
    if (!input.code) {
      await db.batch(forgive);
      return { status: "two-factor-required" };
    }
    // A wrong code is counted with the password's counters given back, in one round trip.
    const proof = await proveCodeAfterPassword(
      ctx,
      row.id,
      { ...row, secretCiphertext: row.secretCiphertext },
      input.code,
      { allowRecoveryCode: true, secret: "enabled" },
      forgive,
    );
    // Past the code's limit the batch aborts: the password's counters are given back all the same.
    const giveBack = () => db.batch(forgive);
    return {
      status: "signed-in",
      ...(await signIn(ctx, row.id, [...forgive, ...proof], giveBack)),
    };
  }
  // No second factor to check: a code sent anyway was no attempt (it was never counted).
  return { status: "signed-in", ...(await signIn(ctx, row.id, forgive)) };
}

const splitLast = <T>(items: T[]): [T[], T] => [items.slice(0, -1), items.at(-1) as T];

/**
 * A new session for a proven account in one round trip: `first` (the counters given back, and
 * the second-factor proof when there is one, which aborts it all if its code was used
 * meanwhile), the session and the account's view.
 */
export async function signIn(
  ctx: AuthContext,
  principalId: string,
  first: readonly BatchItem<"pg">[],
  giveBack?: () => Promise<unknown>,
): Promise<{ account: Account; tokens: SessionTokens }> {
  const refreshTokenId = crypto.randomUUID();
  const statements = [
    ...first,
    sessionInsert(ctx, principalId, refreshTokenId),
    accountView(ctx, principalId),
  ] as unknown as [BatchItem<"pg">, ...BatchItem<"pg">[]];
  const results = (await withSecondFactor(() => ctx.db.batch(statements), giveBack)) as unknown[];
  const [session] = results.at(-2) as Awaited<ReturnType<typeof sessionInsert>>;
  const view = results.at(-1) as Awaited<ReturnType<typeof accountView>>;
  if (!session) throw new Error("session insert returned no row");
  const tokens = await signSessionTokens(ctx, principalId, session.id, refreshTokenId);
  return { account: toAccount(ctx, view[0]), tokens };
}
