import { artists } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { NotFoundError } from "../../../errors/app-error.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import type { Page } from "../../../validation/common.ts";
import { toSummary } from "../../albums/queries.ts";
import { listAlbumsQuery } from "../../albums/service.ts";
import {
  ownTracksQuery,
  readyTracksQuery,
  toOwnTrackDto,
  toTrackDto,
} from "../../tracks/catalogue/queries.ts";
import type { OwnTrackView } from "../../tracks/catalogue/schema.ts";

type Ctx = Pick<RequestDeps, "db">;

/** Whether the artist exists: an artist's page answers 404 for an unknown artist. */
const artistRow = (ctx: Ctx, id: string) =>
  ctx.db.select({ id: artists.id }).from(artists).where(eq(artists.id, id));

function assertArtist(rows: Array<{ id: string }>, id: string): void {
  if (rows.length === 0) throw new NotFoundError(`No artist with id ${id}.`);
}

/** One round trip: the artist's existence and the page together. */
export async function artistTracks(ctx: Ctx, artistId: string, page: Page) {
  const [artist, rows] = await ctx.db.batch([
    artistRow(ctx, artistId),
    readyTracksQuery(ctx.db, { artistId }, "newest", page),
  ]);
  assertArtist(artist, artistId);
  return rows.map(toTrackDto);
}

/**
 * One round trip: the artist's existence and the page together. The artist, signed in, also
 * gets their albums that are not public.
 */
export async function artistAlbums(
  ctx: Pick<RequestDeps, "db" | "viewer">,
  artistId: string,
  page: Page,
) {
  const own = ctx.viewer?.kind === "artist" && ctx.viewer.id === artistId ? artistId : null;
  const [artist, rows] = await ctx.db.batch([
    artistRow(ctx, artistId),
    listAlbumsQuery(ctx.db, { artistId }, page, own),
  ]);
  assertArtist(artist, artistId);
  return rows.map(toSummary);
}

/** The signed-in artist's own tracks in every state (or one): one round trip. */
export async function ownTracks(
  ctx: Pick<RequestDeps, "db" | "principal">,
  query: Page & { status?: OwnTrackView["processingStatus"] | undefined },
): Promise<OwnTrackView[]> {
  const rows = await ownTracksQuery(ctx.db, ctx.principal.id, query.status, query);
  return rows.map(toOwnTrackDto);
}
