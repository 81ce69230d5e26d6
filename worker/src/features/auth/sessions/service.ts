// The account's sessions as its owner sees and ends them (signing in and out is in session/).

import Bowser from "bowser";
import { and, desc, eq, gt, ne, sql } from "drizzle-orm";
import { NotFoundError } from "../../../errors/app-error.ts";
import type { Principal } from "../../../security/principal.ts";
import { SESSION_IDLE_SECONDS } from "../../../security/tokens.ts";
import { endAppPasswords } from "../../app-passwords/service.ts";
import { endEmailLinks } from "../email/service.ts";
import type { AuthContext } from "../shared.ts";

export interface SessionView {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  device: string;
  current: boolean;
}

/** The account's live sessions, the most recently used first (one round trip). */
export async function listSessions(ctx: AuthContext, principal: Principal): Promise<SessionView[]> {
  return toSessionViews(await sessionsQuery(ctx, principal), principal);
}

/** The query of `listSessions`, to send in a batch. */
export function sessionsQuery(ctx: AuthContext, principal: Principal) {
  const { sessions } = ctx.account.auth;
  const lastUsed = sql<Date>`coalesce(${sessions.refreshedAt}, ${sessions.createdAt})`.mapWith(
    sessions.createdAt,
  );
  return ctx.db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastUsedAt: lastUsed,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.principalId, principal.id),
        gt(sessions.expiresAt, ctx.now),
        // An idle session can no longer refresh: it is not listed as live.
        gt(lastUsed, new Date(ctx.now.getTime() - SESSION_IDLE_SECONDS * 1000)),
      ),
    )
    .orderBy(desc(lastUsed), desc(sessions.id));
}

export function toSessionViews(
  rows: Awaited<ReturnType<typeof sessionsQuery>>,
  principal: Principal,
): SessionView[] {
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    device: describeDevice(row.userAgent),
    current: row.id === principal.sessionId,
  }));
}

/** Ends one of the account's sessions (its next request answers 401); 404 for any other id. */
export async function endOwnSession(
  ctx: AuthContext,
  principal: Principal,
  sessionId: string,
): Promise<void> {
  const { sessions } = ctx.account.auth;
  const ended = await ctx.db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.principalId, principal.id)))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw new NotFoundError("No such session of yours.");
}

/**
 * Ends every session of the account but the caller's, and every link mailed for its address (an
 * email change asked from a stolen session dies with it), and every app password, in one batch; answers how many ended.
 */
export async function endOtherSessions(ctx: AuthContext, principal: Principal): Promise<number> {
  const { sessions } = ctx.account.auth;
  const [ended] = await ctx.db.batch([
    ctx.db
      .delete(sessions)
      .where(and(eq(sessions.principalId, principal.id), ne(sessions.id, principal.sessionId)))
      .returning({ id: sessions.id }),
    endEmailLinks(ctx, principal.id),
    endAppPasswords(ctx, principal.id),
  ]);
  return ended.length;
}

/**
 * A coarse description a person recognises ("Firefox on Linux, desktop"), from the user agent
 * the session started with; a client that is no browser is named by its product token.
 */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const parser = Bowser.getParser(userAgent);
  const browser = parser.getBrowserName();
  const os = parser.getOSName();
  const platform = parser.getPlatformType();
  if (!browser) {
    const product = /^[A-Za-z][\w./-]{0,40}/.exec(userAgent)?.[0];
    return product ? `${product}${os ? ` on ${os}` : ""}` : "Unknown device";
  }
  return `${browser}${os ? ` on ${os}` : ""}${platform ? `, ${platform}` : ""}`;
}
