import type { Database } from "@edge-music/db";
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { ACCESS_COOKIE, readCookie } from "../../auth/cookies.ts";
import { authenticate, type Principal } from "../../auth/guard.ts";
import type { Logger } from "../../logger.ts";
import type { ObjectStorage } from "../../storage/index.ts";

/** What the playlist services need of a request; never Hono's Context itself. */
export interface PlaylistContext {
  db: Database;
  storage: ObjectStorage;
  log: Logger;
  /** The caller, or null when signed out (public reads only). */
  principal: Principal | null;
}

export function playlistContext(
  c: Context<AppEnv>,
  principal: Principal | null = c.get("principal"),
): PlaylistContext {
  return {
    db: c.get("services").db(),
    get storage() {
      return c.get("services").storage;
    },
    log: c.get("log"),
    principal,
  };
}

/**
 * The caller on routes open to everyone: no access cookie → signed out. A cookie that is present
 * but invalid, expired or of an ended session → 401 (as on protected routes), so that a client
 * refreshes instead of taking its own private playlist for a missing one.
 */
export async function optionalPrincipal(c: Context<AppEnv>): Promise<Principal | null> {
  if (!readCookie(c, ACCESS_COOKIE)) return null;
  return await authenticate(c);
}

/** The user id a visibility rule may match: artists own no playlists. */
export const viewerUserId = (ctx: PlaylistContext) =>
  ctx.principal?.kind === "user" ? ctx.principal.id : null;
