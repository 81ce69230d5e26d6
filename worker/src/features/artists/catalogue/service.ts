import { artists } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { NotFoundError } from "../../../errors/app-error.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import type { Page } from "../../../validation/common.ts";
import { listAlbums } from "../../albums/service.ts";
import { readyTracks } from "../../tracks/catalogue/queries.ts";

type Ctx = Pick<RequestDeps, "db">;

/** An artist's page answers 404 for an unknown artist, unlike the catalogue-wide filters. */
async function assertArtist(ctx: Ctx, id: string): Promise<void> {
  const [row] = await ctx.db.select({ id: artists.id }).from(artists).where(eq(artists.id, id));
  if (!row) throw new NotFoundError(`No artist with id ${id}.`);
}

export async function artistTracks(ctx: Ctx, artistId: string, page: Page) {
  await assertArtist(ctx, artistId);
  return await readyTracks(ctx.db, { artistId }, "newest", page);
}

export async function artistAlbums(ctx: Ctx, artistId: string, page: Page) {
  await assertArtist(ctx, artistId);
  return await listAlbums(ctx, { artistId }, page);
}
