import { playlists } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { assertOwner, type Principal } from "../../auth/guard.ts";
import { NotFoundError, UnauthorizedError } from "../../errors/app-error.ts";
import type { PlaylistContext } from "./context.ts";
import type { Queryable } from "./queries.ts";

/** The signed-in caller of a protected route (the guard has set it). */
export function callerOf(ctx: PlaylistContext): Principal {
  if (!ctx.principal) throw new UnauthorizedError();
  return ctx.principal;
}

/**
 * (owner) writes: unknown → 404; someone else's → 403, private or not (the spec answers 403
 * to a user other than the owner; only reads hide private playlists behind a 404). With `lock`,
 * the row stays locked until the transaction ends, so concurrent writes of one playlist queue.
 */
export async function assertOwnPlaylist(
  db: Queryable,
  principal: Principal,
  id: string,
  { lock = false } = {},
): Promise<{ id: string; cover: string | null }> {
  const query = db
    .select({ id: playlists.id, userId: playlists.userId, cover: playlists.cover })
    .from(playlists)
    .where(eq(playlists.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new NotFoundError("No such playlist.");
  assertOwner(principal, row.userId, "playlist");
  return { id: row.id, cover: row.cover };
}
