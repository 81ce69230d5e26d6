import type { Queryable } from "@edge-music/db";
import { eq, type SQL, sql } from "drizzle-orm";
import { UnauthorizedError } from "../errors/app-error.ts";
import type { RequestDeps } from "../request-deps.ts";
import type { WithAccount } from "./account-kinds.ts";
import type { SessionTokens } from "./cookies.ts";
import type { Principal } from "./principal.ts";
import {
  ACCESS_TTL_SECONDS,
  isSessionClaims,
  REFRESH_TTL_SECONDS,
  SESSION_IDLE_SECONDS,
  signToken,
  verifyToken,
} from "./tokens.ts";

/** What starting or rotating a session needs: the request, bound to an account kind. */
export type SessionContext = Pick<RequestDeps, "env" | "now" | "ip" | "userAgent"> &
  WithAccount & {
    /** Any database handle: a transaction's when the session starts with the account. */
    readonly db: Queryable;
  };

/** A new server-side session and its two tokens. */
export async function startSession(
  ctx: SessionContext,
  principalId: string,
): Promise<SessionTokens> {
  const refreshTokenId = crypto.randomUUID();
  const [session] = await sessionInsert(ctx, principalId, refreshTokenId);
  if (!session) throw new Error("session insert returned no row");
  return await signSessionTokens(ctx, principalId, session.id, refreshTokenId);
}

/** When a session that starts now ends (its refresh token's lifetime). */
export const sessionExpiry = (ctx: Pick<SessionContext, "now">) =>
  new Date(ctx.now.getTime() + REFRESH_TTL_SECONDS * 1000);

/** The insert of a new session, as a query (to await, or to send in a batch). */
export function sessionInsert(ctx: SessionContext, principalId: string, refreshTokenId: string) {
  const { sessions } = ctx.account.auth;
  return ctx.db
    .insert(sessions)
    .values({
      principalId,
      refreshTokenId,
      expiresAt: sessionExpiry(ctx),
      ip: ctx.ip,
      userAgent: ctx.userAgent?.slice(0, 512),
    })
    .returning({ id: sessions.id });
}

export async function signSessionTokens(
  ctx: Pick<SessionContext, "env" | "now" | "account">,
  principalId: string,
  sessionId: string,
  refreshTokenId: string,
): Promise<SessionTokens> {
  const claims = { sub: principalId, sid: sessionId, kind: ctx.account.name };
  const secret = ctx.env.JWT_SECRET;
  const [accessToken, refreshToken] = await Promise.all([
    signToken(secret, "access", claims, ACCESS_TTL_SECONDS, ctx.now),
    signToken(secret, "refresh", { ...claims, jti: refreshTokenId }, REFRESH_TTL_SECONDS, ctx.now),
  ]);
  return { accessToken, refreshToken };
}

/**
 * Two refreshes with one token within this many seconds of its rotation (two tabs of one
 * browser waking at the same moment) both succeed: the second gets the pair the first made.
 */
export const REFRESH_GRACE_SECONDS = 10;

/**
 * Rotation: the presented refresh token must carry the rotation id the session holds now; it is
 * replaced, so the token just used stops working. The token the last rotation replaced, presented
 * again within REFRESH_GRACE_SECONDS of it, gets the current pair (no new rotation), once: the
 * grace is used up, and a third holder of that token is a replay like any other. Any other
 * token that was already rotated away means two parties hold the same session (theft or replay):
 * the whole session is revoked (ASVS 10.4.5). A session past its end, or unused (no sign-in or
 * refresh) for SESSION_IDLE_SECONDS, is gone: its row is deleted and the refresh refused.
 */
export async function rotateSession(
  ctx: Pick<SessionContext, "env" | "now" | "account"> & Pick<RequestDeps, "db">,
  refreshToken: string | undefined,
): Promise<SessionTokens> {
  if (!refreshToken) throw new UnauthorizedError("No refresh token.");
  const claims = await verifyToken(ctx.env.JWT_SECRET, "refresh", refreshToken, ctx.now);
  if (
    !isSessionClaims(claims) ||
    claims.kind !== ctx.account.name ||
    typeof claims.jti !== "string"
  ) {
    throw new UnauthorizedError("The token is invalid.");
  }
  const { sessions } = ctx.account.auth;
  const next = crypto.randomUUID();
  const graceStart = new Date(ctx.now.getTime() - REFRESH_GRACE_SECONDS * 1000);
  const idleStart = new Date(ctx.now.getTime() - SESSION_IDLE_SECONDS * 1000);
  // One statement, so one round trip: the row is locked (a concurrent rotation with the same
  // token waits, then reads the rotated row and takes the grace or counts as reuse), then rotated,
  // or answered with the current pair within the grace (which it uses up), or, for any other
  // token, deleted.
  const result = (await ctx.db.execute(sql`
    with s as (
      select ${sessions.id} as id, ${sessions.refreshTokenId} as token,
        ${sessions.previousRefreshTokenId} as previous, ${sessions.refreshedAt} as refreshed_at,
        ${sessions.expiresAt} > ${ctx.now}
          and coalesce(${sessions.refreshedAt}, ${sessions.createdAt}) > ${idleStart} as live
      from ${sessions}
      where ${sessions.id} = ${claims.sid} and ${sessions.principalId} = ${claims.sub}
      for update
    ), rotated as (
      update ${sessions}
      set ${sql.identifier(sessions.refreshTokenId.name)} = ${next},
        ${sql.identifier(sessions.previousRefreshTokenId.name)} = s.token,
        ${sql.identifier(sessions.refreshedAt.name)} = ${ctx.now}
      from s
      where ${sessions.id} = s.id and s.live and s.token = ${claims.jti}
      returning 1
    ), grace as (
      update ${sessions}
      set ${sql.identifier(sessions.previousRefreshTokenId.name)} = null
      from s
      where ${sessions.id} = s.id and s.live and s.token <> ${claims.jti}
        and s.previous = ${claims.jti} and s.refreshed_at > ${graceStart}
      returning s.token
    ), revoked as (
      delete from ${sessions} using s
      where ${sessions.id} = s.id and s.live and s.token <> ${claims.jti}
        and not exists (select from grace)
      returning 1
    ), ended as (
      delete from ${sessions} using s where ${sessions.id} = s.id and not s.live
    )
    select case
      when exists (select from rotated) then 'rotated'
      when exists (select from grace) then 'grace'
      when exists (select from revoked) then 'reused'
      else 'gone'
    end as outcome, (select token from grace) as current`)) as unknown as {
    rows: Array<{ outcome: "rotated" | "grace" | "reused" | "gone"; current: string | null }>;
  };
  const row = result.rows[0];
  const outcome = row?.outcome ?? "gone";
  if (outcome === "gone") throw new UnauthorizedError("The session has ended. Sign in again.");
  if (outcome === "reused") {
    throw new UnauthorizedError("This refresh token was already used; the session is revoked.");
  }
  const tokenId = outcome === "grace" ? (row?.current ?? "") : next;
  return await signSessionTokens(ctx, claims.sub, claims.sid, tokenId);
}

export async function endSession(ctx: Pick<SessionContext, "db" | "account">, sessionId: string) {
  const { sessions } = ctx.account.auth;
  await ctx.db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of an account (password reset; `db` may be a transaction's). */
export async function endAllSessions(
  ctx: Pick<SessionContext, "db" | "account">,
  principalId: string,
) {
  const { sessions } = ctx.account.auth;
  await ctx.db.delete(sessions).where(eq(sessions.principalId, principalId));
}

/** SQLSTATE of `assert_live_session` (migration 0009) when the session is not live. */
export const SESSION_ENDED = "ES401";

/**
 * The statement that checks, inside the request's first round trip, that the access token's
 * session is still live (not ended, not expired, this principal's): it raises SESSION_ENDED,
 * aborting everything sent with it. No caching: every request checks again.
 */
export const liveSessionStatement = (principal: Principal, at: Date): SQL =>
  sql`select assert_live_session(${principal.kind}, ${principal.sessionId}, ${principal.id}, ${at.toISOString()})`;

/**
 * Makes the request's first round trip now, so that the session check it carries runs before the
 * caller does something costly outside the database (streaming an upload to storage).
 */
export async function confirmSession(ctx: Pick<RequestDeps, "db">): Promise<void> {
  await ctx.db.execute(sql`select true`);
}
