import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { UnauthorizedError } from "../../../errors/app-error.ts";
import type { SessionTokens } from "../../../security/cookies.ts";
import { randomToken, sha256Base64url, timingSafeEqual } from "../../../security/crypto.ts";
import { sessionExpiry, signSessionTokens } from "../../../security/sessions.ts";
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
  | { status: "signed-in"; tokens: SessionTokens }
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
  const { principalId, session } = await signInIdentity(ctx, provider.name, profile);
  if (session) {
    return {
      status: "signed-in",
      tokens: await signSessionTokens(ctx, principalId, session.id, session.refreshTokenId),
    };
  }
  {
    const pendingToken = await signToken(
      ctx.env.JWT_SECRET,
      "pending-2fa",
      { sub: principalId, kind: ctx.account.name },
      PENDING_TWO_FACTOR_TTL_SECONDS,
      ctx.now,
    );
    return { status: "two-factor-required", pendingToken };
  }
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
 * proven; else a new account without a password. Then a session, unless the account asks for a
 * second factor. All of it in one batch (one transaction, one round trip): each statement does
 * its part only when the case is its own, decided in SQL, so the same batch serves a returning
 * identity (it only opens the session) and a first sign-in.
 */
async function signInIdentity(
  ctx: AuthContext,
  provider: string,
  profile: OAuthProfile,
): Promise<{ principalId: string; session?: { id: string; refreshTokenId: string } }> {
  // Two first sign-ins that pick the same free username at once: one of them inserts nothing
  // (and links nothing) and tries again with the next names.
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = await identityBatch(ctx, provider, profile);
    if (outcome) return outcome;
  }
  throw new Error("no account could be made for the identity after 3 attempts");
}

async function identityBatch(ctx: AuthContext, provider: string, profile: OAuthProfile) {
  const { db } = ctx;
  const { principals, auth } = ctx.account;
  const links = auth.oauthAccounts;
  const tf = auth.twoFactor;
  const identity = and(eq(links.provider, provider), eq(links.subject, profile.subject));
  const unlinked = sql`not exists (select from ${links} where ${identity})`;
  const verifiedEmail = profile.email && profile.emailVerified ? profile.email : null;
  // Without a verified email the account gets an address nobody can receive mail at, so it can
  // never collide with (or take over) an account that owns the real address.
  const email = verifiedEmail ?? `${provider}-${profile.subject}@oauth.invalid`.toLowerCase();
  const statements: BatchItem<"pg">[] = [];
  if (verifiedEmail) {
    // Nobody ever proved this address: whoever registered it may not own it (a trap set for the
    // real owner, who could otherwise be held at a second factor the trap's author set up). The
    // provider's proof wins: the unproven password, sessions, reset and verification links, and
    // any 2FA (active or pending, with its recovery codes) go, and the address counts as proven
    // from now on. Only an account whose address is proven is linked as it is.
    const unproven = db
      .select({ id: principals.id })
      .from(principals)
      .where(
        and(eq(principals.email, verifiedEmail), isNull(principals.emailVerifiedAt), unlinked),
      );
    statements.push(
      // Locked first: a registration, sign-in or reset of the same address waits for this batch.
      db
        .select({ id: principals.id })
        .from(principals)
        .where(eq(principals.email, verifiedEmail))
        .for("update"),
      db.delete(auth.sessions).where(inArray(auth.sessions.principalId, unproven)),
      db
        .delete(auth.passwordResetTokens)
        .where(inArray(auth.passwordResetTokens.principalId, unproven)),
      db.delete(auth.emailTokens).where(inArray(auth.emailTokens.principalId, unproven)),
      db.delete(auth.recoveryCodes).where(inArray(auth.recoveryCodes.principalId, unproven)),
      db.delete(tf).where(inArray(tf.principalId, unproven)),
      db
        .update(principals)
        .set({ passwordHash: null, emailVerifiedAt: ctx.now })
        .where(inArray(principals.id, unproven)),
    );
  }
  const base = usernameFrom(profile);
  const usernames = [
    base,
    ...Array.from({ length: 4 }, () => `${base}-${randomToken(3).replace(/[^A-Za-z0-9]/g, "x")}`),
  ];
  const column = (c: { name: string }) => sql.identifier(c.name);
  const refreshTokenId = crypto.randomUUID();
  const { sessions } = auth;
  statements.push(
    // A new account when nobody holds the address: the first of the names nobody has.
    db.execute(sql`
      insert into ${principals} (${column(principals.username)}, ${column(principals.email)}, ${column(principals.emailVerifiedAt)})
      select name, ${email}, ${verifiedEmail ? ctx.now.toISOString() : null}::timestamptz
      from unnest(${sql.param(usernames)}::text[]) with ordinality as candidate(name, n)
      where ${unlinked}
        and not exists (select from ${principals} where ${principals.email} = ${email})
        and not exists (select from ${principals} where lower(${principals.username}) = lower(name))
      order by n limit 1
      on conflict do nothing`),
    // The identity linked to the account of that address (found, taken over or just made).
    db.execute(sql`
      insert into ${links} (${column(links.principalId)}, ${column(links.provider)}, ${column(links.subject)}, ${column(links.email)})
      select ${principals.id}, ${provider}, ${profile.subject}, ${profile.email ?? null}
      from ${principals}
      where ${principals.email} = ${email} and ${unlinked}
      on conflict do nothing`),
    db.select({ principalId: links.principalId }).from(links).where(identity),
    // The session, only for an account without an active second factor.
    db.execute(sql`
      insert into ${sessions} (${column(sessions.principalId)}, ${column(sessions.refreshTokenId)}, ${column(sessions.expiresAt)}, ${column(sessions.ip)}, ${column(sessions.userAgent)})
      select ${links.principalId}, ${refreshTokenId}, ${sessionExpiry(ctx).toISOString()}::timestamptz, ${ctx.ip}, ${ctx.userAgent?.slice(0, 512) ?? null}
      from ${links}
      where ${identity}
        and not exists (select from ${tf} where ${tf.principalId} = ${links.principalId} and ${tf.enabledAt} is not null)
      returning ${sessions.id} as id`),
  );
  const results = (await db.batch(
    statements as unknown as [BatchItem<"pg">, ...BatchItem<"pg">[]],
  )) as unknown[];
  const [linked] = results.at(-2) as Array<{ principalId: string }>;
  const session = (results.at(-1) as { rows: Array<{ id: string }> }).rows[0];
  if (!linked) return null;
  return {
    principalId: linked.principalId,
    ...(session ? { session: { id: session.id, refreshTokenId } } : {}),
  };
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
