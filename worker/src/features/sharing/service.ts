import { albums, playlists, tracks } from "@edge-music/db";
import { and, eq, sql } from "drizzle-orm";
import { NotFoundError } from "../../errors/app-error.ts";
import type { RequestDeps } from "../../request-deps.ts";
import type { ShareLinkView } from "./schema.ts";

/** The items that have a share key, by the path segment of their pages and routes. */
export const SHARED_ITEMS = {
  tracks: { table: tracks, owner: tracks.artistId, kind: "artist", noun: "track" },
  albums: { table: albums, owner: albums.artistId, kind: "artist", noun: "album" },
  playlists: { table: playlists, owner: playlists.userId, kind: "user", noun: "playlist" },
} as const;
export type SharedItem = keyof typeof SHARED_ITEMS;

type ShareDeps = Pick<RequestDeps, "db" | "env" | "principal">;

/**
 * GET …/{id}/share-link, or POST (`rotate`): the owner's link to the item, its key made anew by
 * Postgres when rotating (`share_key = DEFAULT`), which ends the old link at once. One statement,
 * scoped by the owner: anyone else's item reads as missing (404), so the key never leaves the owner.
 */
export async function shareLink(
  ctx: ShareDeps,
  item: SharedItem,
  id: string,
  rotate: boolean,
): Promise<ShareLinkView> {
  const { table, owner, noun } = SHARED_ITEMS[item];
  const mine = and(eq(table.id, id), eq(owner, ctx.principal.id));
  const [row] = rotate
    ? await ctx.db
        .update(table)
        .set({ shareKey: sql`DEFAULT` })
        .where(mine)
        .returning({ key: table.shareKey })
    : await ctx.db.select({ key: table.shareKey }).from(table).where(mine);
  if (!row) throw new NotFoundError(`No ${noun} of yours with id ${id}.`);
  return { url: shareUrl(ctx.env.FRONTEND_URL, item, id, row.key) };
}

/** The web player's page of the item with its key. */
export const shareUrl = (frontend: string, item: SharedItem, id: string, key: string) => {
  const url = new URL(`/${item}/${id}`, frontend);
  url.searchParams.set("key", key);
  return url.toString();
};
