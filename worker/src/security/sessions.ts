import type { Database } from "@edge-music/db";
import { and, eq, gt } from "drizzle-orm";
import type { Env } from "../env.ts";
import { UnauthorizedError } from "../errors/app-error.ts";
import { KIND_TABLES, type PrincipalKind } from "./account-kinds.ts";
import type { SessionTokens } from "./cookies.ts";
import {
  ACCESS_TTL_SECONDS,
  isSessionClaims,
  REFRESH_TTL_SECONDS,
  signToken,
  verifyToken,
} from "./tokens.ts";

export interface SessionContext {
  db: Database;
  env: Env;
  now: Date;
  ip: string;
  userAgent: string | undefined;
}

/** A new server-side session and its two tokens. */
export async function startSession(
  ctx: SessionContext,
  kind: PrincipalKind,
  principalId: string,
): Promise<SessionTokens> {
  const { sessions } = KIND_TABLES[kind].auth;
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
  return await signSessionTokens(ctx, kind, principalId, session.id, refreshTokenId);
}

async function signSessionTokens(
  ctx: SessionContext,
  kind: PrincipalKind,
  principalId: string,
  sessionId: string,
  refreshTokenId: string,
): Promise<SessionTokens> {
  const claims = { sub: principalId, sid: sessionId, kind };
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
  ctx: SessionContext,
  kind: PrincipalKind,
  refreshToken: string | undefined,
): Promise<SessionTokens> {
  if (!refreshToken) throw new UnauthorizedError("No refresh token.");
  const claims = await verifyToken(ctx.env.JWT_SECRET, "refresh", refreshToken, ctx.now);
  if (!isSessionClaims(claims) || claims.kind !== kind || typeof claims.jti !== "string") {
    throw new UnauthorizedError("The token is invalid.");
  }
  const { sessions } = KIND_TABLES[kind].auth;
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
  return await signSessionTokens(ctx, kind, claims.sub, claims.sid, next);
}

export async function endSession(db: Database, kind: PrincipalKind, sessionId: string) {
  const { sessions } = KIND_TABLES[kind].auth;
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of an account (password reset, account deletion). */
export async function endAllSessions(db: Database, kind: PrincipalKind, principalId: string) {
  const { sessions } = KIND_TABLES[kind].auth;
  await db.delete(sessions).where(eq(sessions.principalId, principalId));
}

/** The live session an access token names, or null (deleted, expired or not this principal's). */
export async function findLiveSession(
  db: Database,
  kind: PrincipalKind,
  sessionId: string,
  principalId: string,
  now: Date,
): Promise<{ id: string } | null> {
  const { sessions } = KIND_TABLES[kind].auth;
  const [session] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.principalId, principalId),
        gt(sessions.expiresAt, now),
      ),
    );
  return session ?? null;
}
