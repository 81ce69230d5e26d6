import { albums, artists, FOREIGN_KEY_VIOLATION, pgErrorCode } from "@edge-music/db";
import { and, desc, eq } from "drizzle-orm";
import { NotFoundError } from "../../errors/app-error.ts";
import type { Image } from "../../images/images.ts";
import { discardImages, replaceImages } from "../../images/replace.ts";
import type { RequestDeps } from "../../request-deps.ts";
import { assertOwner } from "../../security/guard.ts";
import { offsetOf, type Page } from "../../validation/common.ts";
import { readyTracks } from "../tracks/catalogue/queries.ts";
import type { AlbumSummaryView, AlbumView } from "./schema.ts";

const albumNotFound = (id: string) => new NotFoundError(`No album with id ${id}.`);

const SUMMARY = {
  id: albums.id,
  title: albums.title,
  cover: albums.cover,
  releasedAt: albums.releasedAt,
  artistId: albums.artistId,
  createdAt: albums.createdAt,
  artistUsername: artists.username,
  artistAvatar: artists.avatar,
};

interface SummaryRow {
  id: string;
  title: string;
  cover: string | null;
  releasedAt: string | null;
  artistId: string;
  createdAt: Date;
  artistUsername: string;
  artistAvatar: string | null;
}

const toSummary = ({ artistUsername, artistAvatar, ...row }: SummaryRow): AlbumSummaryView => ({
  ...row,
  artist: { id: row.artistId, username: artistUsername, avatar: artistAvatar },
  createdAt: row.createdAt.toISOString(),
});

/** Newest first (ties by id); an unknown artistId matches nothing. */
export async function listAlbums(
  ctx: Pick<RequestDeps, "db">,
  filter: { artistId?: string | undefined },
  page: Page,
): Promise<AlbumSummaryView[]> {
  const rows = await ctx.db
    .select(SUMMARY)
    .from(albums)
    .innerJoin(artists, eq(artists.id, albums.artistId))
    .where(filter.artistId ? eq(albums.artistId, filter.artistId) : undefined)
    .orderBy(desc(albums.createdAt), desc(albums.id))
    .limit(page.limit)
    .offset(offsetOf(page));
  return rows.map(toSummary);
}

/** An album with its READY tracks, oldest first; albums have no state, so everyone sees them. */
export async function getAlbum(ctx: Pick<RequestDeps, "db">, id: string): Promise<AlbumView> {
  const [row] = await ctx.db
    .select(SUMMARY)
    .from(albums)
    .innerJoin(artists, eq(artists.id, albums.artistId))
    .where(eq(albums.id, id));
  if (!row) throw albumNotFound(id);
  return { ...toSummary(row), tracks: await readyTracks(ctx.db, { albumId: id }, "oldest") };
}

export interface AlbumInput {
  title: string;
  releasedAt?: string | null | undefined;
}

export async function createAlbum(
  ctx: Pick<RequestDeps, "db" | "principal">,
  input: AlbumInput,
): Promise<AlbumView> {
  let id: string;
  try {
    const [row] = await ctx.db
      .insert(albums)
      .values({
        artistId: ctx.principal.id,
        title: input.title,
        releasedAt: input.releasedAt ?? null,
      })
      .returning({ id: albums.id });
    if (!row) throw new Error("insert returned no row");
    id = row.id;
  } catch (error) {
    // The account was deleted between the guard and the insert.
    if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) {
      throw new NotFoundError("The account no longer exists.");
    }
    throw error;
  }
  return await getAlbum(ctx, id);
}

export interface AlbumUpdate extends Partial<AlbumInput> {
  cover?: Image | undefined;
}

/** The row is locked while its owner is checked, so the cover it had is the one replaced. */
export async function updateAlbum(
  ctx: Pick<RequestDeps, "db" | "interactiveDb" | "storage" | "log" | "principal">,
  id: string,
  update: AlbumUpdate,
): Promise<AlbumView> {
  const caller = ctx.principal;
  const images = update.cover ? { cover: { folder: "covers" as const, image: update.cover } } : {};
  await replaceImages(ctx, images, async (tx, store) => {
    const [album] = await tx
      .select({ artistId: albums.artistId, cover: albums.cover })
      .from(albums)
      .where(eq(albums.id, id))
      .for("update");
    if (!album) throw albumNotFound(id);
    assertOwner(caller, album.artistId, "album");
    const { cover } = await store();
    await tx
      .update(albums)
      .set({
        ...(update.title !== undefined ? { title: update.title } : {}),
        ...(update.releasedAt !== undefined ? { releasedAt: update.releasedAt } : {}),
        ...(cover ? { cover } : {}),
      })
      .where(and(eq(albums.id, id), eq(albums.artistId, caller.id)));
    return { previous: { cover: album.cover }, result: undefined };
  });
  return await getAlbum(ctx, id);
}

/**
 * Deletes the album; the schema turns its tracks into singles (album_id set null), so no track
 * is lost. The cover object is deleted after the row; a storage failure is only logged.
 */
export async function deleteAlbum(
  ctx: Pick<RequestDeps, "db" | "storage" | "log" | "principal">,
  id: string,
): Promise<void> {
  const caller = ctx.principal;
  const [row] = await ctx.db
    .delete(albums)
    .where(and(eq(albums.id, id), eq(albums.artistId, caller.id)))
    .returning({ cover: albums.cover });
  if (!row) {
    const [other] = await ctx.db
      .select({ artistId: albums.artistId })
      .from(albums)
      .where(eq(albums.id, id));
    if (other) assertOwner(caller, other.artistId, "album");
    throw albumNotFound(id);
  }
  await discardImages(ctx, [row.cover], { albumId: id });
}
