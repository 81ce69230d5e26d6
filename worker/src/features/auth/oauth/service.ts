import { pgErrorCode, type Transaction, UNIQUE_VIOLATION } from "@edge-music/db";
import { and, eq, sql } from "drizzle-orm";
import { UnauthorizedError } from "../../../errors/app-error.ts";
import { randomToken, sha256Base64url, timingSafeEqual } from "../../../security/crypto.ts";
import { startSession } from "../../../security/sessions.ts";
import { signToken, verifyToken } from "../../../security/tokens.ts";
import { USERNAME } from "../schema.ts";
import type { AuthContext } from "../shared.ts";
import type { OAuthProfile, OAuthProvider } from "./providers.ts";

export const OAUTH_STATE_TTL_SECONDS = 10 * 60;
export const PENDING_TWO_FACTOR_TTL_SECONDS = 5 * 60;

/** Why a callback did not sign in; the front end receives it as `?error=<reason>`. */
export class OAuthFlowError extends Error {
  constructor(
    readonly reason: "access_denied" | "invalid_state" | "provider_error",
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
    this.name = "OAuthFlowError";
  }
}

export const callbackUrl = (ctx: AuthContext, provider: string) =>
  new URL(`${ctx.account.authPath}/oauth/${provider}/callback`, ctx.env.PUBLIC_BASE_URL).toString();

/**
 * Step 1: where to send the browser, and the state cookie that binds the callback to this browser
 * (CSRF) together with the PKCE verifier (a stolen code is useless without it).
 */
export async function startOAuth(ctx: AuthContext, provider: OAuthProvider) {
  const state = randomToken(16);
  const verifier = randomToken(32);
  const url = new URL(provider.authorizeUrl);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: provider.clientId,
    redirect_uri: callbackUrl(ctx, provider.name),
    scope: provider.scope,
    state,
    code_challenge: await sha256Base64url(verifier),
    code_challenge_method: "S256",
  }).toString();
  const stateToken = await signToken(
    ctx.env.JWT_SECRET,
    "oauth-state",
    { state, verifier, provider: provider.name, kind: ctx.account.name },
    OAUTH_STATE_TTL_SECONDS,
    ctx.now,
  );
  return { location: url.toString(), stateToken };
}

export interface CallbackInput {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
  stateToken?: string | undefined;
}

export type CallbackResult =
  | { status: "signed-in"; tokens: Awaited<ReturnType<typeof startSession>> }
  | { status: "two-factor-required"; pendingToken: string };

/** Step 2: check the state, trade the code, find or make the account, then sign in. */
export async function finishOAuth(
  ctx: AuthContext,
  provider: OAuthProvider,
  input: CallbackInput,
): Promise<CallbackResult> {
  const saved = input.stateToken
    ? await verifyToken<{ state: string; verifier: string; provider: string; kind: string }>(
        ctx.env.JWT_SECRET,
        "oauth-state",
        input.stateToken,
        ctx.now,
      ).catch(() => null)
    : null;
  const stateMatches =
    saved !== null &&
    typeof input.state === "string" &&
    timingSafeEqual(saved.state, input.state) &&
    saved.provider === provider.name &&
    saved.kind === ctx.account.name;
  if (!stateMatches || !saved) {
    throw new OAuthFlowError("invalid_state", "the state does not match this browser's sign-in");
  }
  if (input.error || !input.code) {
    throw new OAuthFlowError("access_denied", `the provider answered ${input.error ?? "no code"}`);
  }
  const profile = await exchangeAndReadProfile(ctx, provider, input.code, saved.verifier);
  const { principalId, twoFactorEnabled } = await findOrCreateAccount(ctx, provider.name, profile);
  if (twoFactorEnabled) {
    const pendingToken = await signToken(
      ctx.env.JWT_SECRET,
      "pending-2fa",
      { sub: principalId, kind: ctx.account.name },
      PENDING_TWO_FACTOR_TTL_SECONDS,
      ctx.now,
    );
    return { status: "two-factor-required", pendingToken };
  }
  return { status: "signed-in", tokens: await startSession(ctx, principalId) };
}

async function exchangeAndReadProfile(
  ctx: AuthContext,
  provider: OAuthProvider,
  code: string,
  verifier: string,
): Promise<OAuthProfile> {
  try {
    const response = await fetch(provider.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: callbackUrl(ctx, provider.name),
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
        code_verifier: verifier,
      }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.json()) as { access_token?: unknown; error?: unknown };
    if (!response.ok || typeof body.access_token !== "string") {
      throw new Error(`token endpoint answered ${response.status} ${String(body.error ?? "")}`);
    }
    return await provider.profile(body.access_token);
  } catch (error) {
    throw new OAuthFlowError("provider_error", "the provider exchange failed", { cause: error });
  }
}

/**
 * The account linked to (provider, subject); else the account with the same email when the
 * provider vouches for it (verified), which is then linked — taken over if its address was never
 * proven; else a new account without a password.
 */
async function findOrCreateAccount(
  ctx: AuthContext,
  provider: string,
  profile: OAuthProfile,
): Promise<{ principalId: string; twoFactorEnabled: boolean }> {
  const { principals, auth } = ctx.account;
  const links = auth.oauthAccounts;
  // A returning identity: its account and whether it asks for a second factor, in one query.
  const [linked] = await ctx.db
    .select({
      principalId: links.principalId,
      twoFactorEnabled: sql<boolean>`${auth.twoFactor.enabledAt} is not null`,
    })
    .from(links)
    .leftJoin(auth.twoFactor, eq(auth.twoFactor.principalId, links.principalId))
    .where(and(eq(links.provider, provider), eq(links.subject, profile.subject)));
  if (linked)
    return { principalId: linked.principalId, twoFactorEnabled: linked.twoFactorEnabled === true };

  const principalId = await ctx.interactiveDb.transaction(async (tx) => {
    const verifiedEmail = profile.email && profile.emailVerified ? profile.email : null;
    const [byEmail] = verifiedEmail
      ? await tx
          .select({ id: principals.id, emailVerifiedAt: principals.emailVerifiedAt })
          .from(principals)
          .where(eq(principals.email, verifiedEmail))
          .for("update")
      : [];
    let principalId = byEmail?.id;
    if (byEmail && !byEmail.emailVerifiedAt) {
      const [secondFactor] = await tx
        .select({ enabledAt: auth.twoFactor.enabledAt })
        .from(auth.twoFactor)
        .where(eq(auth.twoFactor.principalId, byEmail.id));
      // An account with an active second factor stays as it is: the sign-in will ask for that
      // factor, which only whoever set it up can give, so nobody is trapped in it either.
      if (!secondFactor?.enabledAt) {
        // Nobody ever proved this address: whoever registered it may not own it (a trap set for
        // the real owner). The provider's proof wins: the unproven password, sessions and reset
        // links go, and the address counts as proven from now on.
        await tx
          .update(principals)
          .set({ passwordHash: null, emailVerifiedAt: ctx.now })
          .where(eq(principals.id, byEmail.id));
        await tx.delete(auth.sessions).where(eq(auth.sessions.principalId, byEmail.id));
        await tx
          .delete(auth.passwordResetTokens)
          .where(eq(auth.passwordResetTokens.principalId, byEmail.id));
        await tx.delete(auth.twoFactor).where(eq(auth.twoFactor.principalId, byEmail.id));
      }
    }
    if (!principalId) {
      // Without a verified email the account gets an address nobody can receive mail at, so it
      // can never collide with (or take over) an account that owns the real address.
      const email = verifiedEmail ?? `${provider}-${profile.subject}@oauth.invalid`.toLowerCase();
      principalId = await insertWithFreeUsername(
        tx,
        ctx,
        usernameFrom(profile),
        email,
        verifiedEmail ? ctx.now : null,
      );
    }
    await tx.insert(links).values({
      principalId,
      provider,
      subject: profile.subject,
      email: profile.email,
    });
    return principalId;
  });
  // A new or linked account: its second factor, if it kept one, is asked for.
  const [factor] = await ctx.db
    .select({ enabledAt: auth.twoFactor.enabledAt })
    .from(auth.twoFactor)
    .where(eq(auth.twoFactor.principalId, principalId));
  return { principalId, twoFactorEnabled: Boolean(factor?.enabledAt) };
}

/** A username from the profile's name or email: letters, digits, `_.-`, 3–30 characters. */
export function usernameFrom(profile: OAuthProfile): string {
  const source = profile.name ?? profile.email?.split("@")[0] ?? "listener";
  const cleaned = source
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\s+/g, ".")
    .replace(/[^A-Za-z0-9_.-]/g, "")
    .slice(0, 24);
  return USERNAME.test(cleaned) ? cleaned : `listener${cleaned}`.slice(0, 24);
}

async function insertWithFreeUsername(
  tx: Transaction,
  ctx: Pick<AuthContext, "account">,
  base: string,
  email: string,
  emailVerifiedAt: Date | null,
) {
  const { principals } = ctx.account;
  for (let attempt = 0; attempt < 5; attempt++) {
    const username =
      attempt === 0 ? base : `${base}-${randomToken(3).replace(/[^A-Za-z0-9]/g, "x")}`;
    // A savepoint: a taken username must not abort the surrounding transaction.
    try {
      const row = await tx.transaction(async (sp) => {
        const [inserted] = await sp
          .insert(principals)
          .values({ username, email, emailVerifiedAt })
          .returning({ id: principals.id });
        return inserted;
      });
      if (row) return row.id;
    } catch (error) {
      if (pgErrorCode(error) !== UNIQUE_VIOLATION) throw error;
    }
  }
  throw new Error("no free username after 5 attempts");
}

/** Completes a sign-in that waits for its second factor (OAuth into a 2FA account). */
export async function readPendingTwoFactor(ctx: AuthContext, token: string) {
  const claims = await verifyToken<{ sub?: unknown; kind?: unknown }>(
    ctx.env.JWT_SECRET,
    "pending-2fa",
    token,
    ctx.now,
  );
  if (typeof claims.sub !== "string" || claims.kind !== ctx.account.name) {
    throw new UnauthorizedError("The pending sign-in is not for this kind of account.");
  }
  return claims.sub;
}
