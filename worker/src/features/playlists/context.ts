import type { Database } from "@edge-music/db";
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import type { Logger } from "../../logger.ts";
import type { Principal } from "../../security/guard.ts";
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

/** The user id a visibility rule may match: artists own no playlists. */
export const viewerUserId = (ctx: PlaylistContext) =>
  ctx.principal?.kind === "user" ? ctx.principal.id : null;
