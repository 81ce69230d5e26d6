import { and, eq, gt } from "drizzle-orm";
import { UnauthorizedError } from "../errors/app-error.ts";
import type { RequestDeps } from "../request-deps.ts";
import type { WithAccount } from "./account-kinds.ts";
import type { SessionTokens } from "./cookies.ts";
import {
  ACCESS_TTL_SECONDS,
  isSessionClaims,
  REFRESH_TTL_SECONDS,
  signToken,
  verifyToken,
} from "./tokens.ts";

/** What starting or rotating a session needs: the request, bound to an account kind. */
export type SessionContext = Pick<RequestDeps, "db" | "env" | "now" | "ip" | "userAgent"> &
  WithAccount;

/** A new server-side session and its two tokens. */
export async function startSession(
  ctx: SessionContext,
  principalId: string,
): Promise<SessionTokens> {
  const { sessions } = ctx.account.auth;
  const refreshTokenId = crypto.randomUUID();
  const [session] = await ctx.db
    .insert(sessions)
    .values({
      principalId,
      refreshTokenId,
      expiresAt: new Date(ctx.now.getTime() + REFRESH_TTL_SECONDS * 1000),
      ip: ctx.ip,
      userAgent: ctx.userAgent?.slice(0, 512),
    })
    .returning({ id: sessions.id });
  if (!session) throw new Error("session insert returned no row");
  return await signSessionTokens(ctx, principalId, session.id, refreshTokenId);
}

async function signSessionTokens(
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
 * Rotation: the presented refresh token must carry the rotation id the session holds now; it is
 * replaced, so the token just used stops working. A token that was already rotated away means
 * two parties hold the same session (theft or replay): the whole session is revoked (ASVS 10.4.5).
 */
export async function rotateSession(
  ctx: Pick<SessionContext, "db" | "env" | "now" | "account">,
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
  const outcome = await ctx.db.transaction(async (tx) => {
    const [session] = await tx
      .select({ refreshTokenId: sessions.refreshTokenId, expiresAt: sessions.expiresAt })
      .from(sessions)
      .where(and(eq(sessions.id, claims.sid), eq(sessions.principalId, claims.sub)))
      .for("update");
    if (!session || session.expiresAt <= ctx.now) return "gone" as const;
    if (session.refreshTokenId !== claims.jti) {
      await tx.delete(sessions).where(eq(sessions.id, claims.sid));
      return "reused" as const;
    }
    await tx
      .update(sessions)
      .set({ refreshTokenId: next, refreshedAt: ctx.now })
      .where(eq(sessions.id, claims.sid));
    return "rotated" as const;
  });
  if (outcome === "gone") throw new UnauthorizedError("The session has ended. Sign in again.");
  if (outcome === "reused") {
    throw new UnauthorizedError("This refresh token was already used; the session is revoked.");
  }
  return await signSessionTokens(ctx, claims.sub, claims.sid, next);
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

/** The live session an access token names, or null (deleted, expired or not this principal's). */
export async function findLiveSession(
  ctx: Pick<SessionContext, "db" | "now" | "account">,
  sessionId: string,
  principalId: string,
): Promise<{ id: string } | null> {
  const { sessions } = ctx.account.auth;
  const [session] = await ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.principalId, principalId),
        gt(sessions.expiresAt, ctx.now),
      ),
    );
  return session ?? null;
}
