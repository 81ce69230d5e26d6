import { trackKeys } from "@edge-music/contracts";
import { albums, type Transaction, tracks } from "@edge-music/db";
import { and, eq, sql } from "drizzle-orm";
import { NotFoundError } from "../../../errors/app-error.ts";
import type { Image } from "../../../images/images.ts";
import { discardImages, replaceImages } from "../../../images/replace.ts";
import { describeError } from "../../../logger.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { assertOwner } from "../../../security/guard.ts";
import { deletePrefix } from "../../../storage/index.ts";
import type { Page } from "../../../validation/common.ts";
import {
  findTrack,
  findTrackQuery,
  readyTracks,
  type TrackFilter,
  toOwnTrackDto,
  toTrackDto,
} from "./queries.ts";
import type { OwnTrackView, TrackView } from "./schema.ts";

/** What the track services take; each function picks what it uses. */
type CatalogueDeps = Pick<
  RequestDeps,
  "db" | "interactiveDb" | "storage" | "log" | "principal" | "viewer"
>;

const trackNotFound = (id: string) => new NotFoundError(`No track with id ${id}.`);

export async function listTracks(
  ctx: Pick<CatalogueDeps, "db">,
  filter: TrackFilter,
  page: Page,
): Promise<TrackView[]> {
  return await readyTracks(ctx.db, filter, "newest", page);
}

/**
 * A READY track for everyone; a track in any other state only for its owning artist, to anyone
 * else it does not exist (404, not 403: an unpublished upload is nobody else's business). The
 * owner always gets the processing fields.
 */
export async function getTrack(
  ctx: Pick<CatalogueDeps, "db" | "viewer">,
  id: string,
): Promise<TrackView | OwnTrackView> {
  const caller = ctx.viewer;
  const row = await findTrack(ctx.db, id);
  const own = caller?.kind === "artist" && row?.artistId === caller.id;
  if (!row || (row.processingStatus !== "READY" && !own)) throw trackNotFound(id);
  return own ? toOwnTrackDto(row) : toTrackDto(row);
}

export interface TrackUpdate {
  title?: string | undefined;
  albumId?: string | null | undefined;
  cover?: Image | undefined;
}

/**
 * The row is locked while the owner and the album are checked, so the cover it had is the one
 * replaced; the album is locked FOR SHARE, so it cannot be deleted before the update commits.
 */
export async function updateTrack(
  ctx: Pick<CatalogueDeps, "db" | "interactiveDb" | "storage" | "log" | "principal">,
  id: string,
  update: TrackUpdate,
): Promise<OwnTrackView> {
  const caller = ctx.principal;
  const fields = {
    ...(update.title !== undefined ? { title: update.title } : {}),
    ...(update.albumId !== undefined ? { albumId: update.albumId } : {}),
  };
  if (!update.cover) return await updateTrackFields(ctx, id, fields);
  const images = { cover: { folder: "covers" as const, image: update.cover } };
  await replaceImages(ctx, images, async (tx, store) => {
    const [track] = await tx
      .select({ artistId: tracks.artistId, cover: tracks.cover })
      .from(tracks)
      .where(eq(tracks.id, id))
      .for("update");
    if (!track) throw trackNotFound(id);
    assertOwner(caller, track.artistId, "track");
    if (update.albumId) await lockOwnAlbum(tx, caller.id, update.albumId);
    const { cover } = await store();
    await tx
      .update(tracks)
      .set({ ...fields, ...(cover ? { cover } : {}) })
      .where(and(eq(tracks.id, id), eq(tracks.artistId, caller.id)));
    return { previous: { cover: track.cover }, result: undefined };
  });
  const row = await findTrack(ctx.db, id);
  if (!row) throw trackNotFound(id);
  return toOwnTrackDto(row);
}

/**
 * An update without an image, as one batch (one round trip): the track is locked and the album
 * locked FOR SHARE (it cannot be deleted before the update commits) and read; the update applies
 * only when the caller owns both; the track is read back. The answer is decided from what the
 * batch read, and nothing was written otherwise.
 */
async function updateTrackFields(
  ctx: Pick<CatalogueDeps, "db" | "principal">,
  id: string,
  fields: { title?: string; albumId?: string | null },
): Promise<OwnTrackView> {
  const { db, principal: caller } = ctx;
  const albumId = fields.albumId ?? null;
  const ownAlbum = albumId
    ? sql`exists (select from ${albums} where ${albums.id} = ${albumId} and ${albums.artistId} = ${caller.id})`
    : sql`true`;
  const [owner, album, , rows] = await db.batch([
    db.select({ artistId: tracks.artistId }).from(tracks).where(eq(tracks.id, id)).for("update"),
    db
      .select({ id: albums.id })
      .from(albums)
      .where(albumId ? and(eq(albums.id, albumId), eq(albums.artistId, caller.id)) : sql`false`)
      .for("share"),
    db
      .update(tracks)
      // `id` (unchanged) keeps the SET list non-empty whatever the caller sent.
      .set({ ...fields, id })
      .where(and(eq(tracks.id, id), eq(tracks.artistId, caller.id), ownAlbum)),
    findTrackQuery(db, id),
  ]);
  const [track] = owner;
  if (!track) throw trackNotFound(id);
  assertOwner(caller, track.artistId, "track");
  if (albumId && album.length === 0)
    throw new NotFoundError(`No album of yours with id ${albumId}.`);
  const [row] = rows;
  if (!row) throw trackNotFound(id);
  return toOwnTrackDto(row);
}

/** Another artist's album answers like a missing one: whose albums exist is not the point. */
async function lockOwnAlbum(tx: Transaction, artistId: string, albumId: string): Promise<void> {
  const [album] = await tx
    .select({ id: albums.id })
    .from(albums)
    .where(and(eq(albums.id, albumId), eq(albums.artistId, artistId)))
    .for("share");
  if (!album) throw new NotFoundError(`No album of yours with id ${albumId}.`);
}

/**
 * Deletes the row (its file records, playlist entries and listens cascade in the schema), then
 * every object under tracks/<id>/, the upload's source if it lies elsewhere, and the cover.
 * Storage comes second: once the row is gone nothing can reach the objects, so a storage failure
 * is logged and leaves harmless orphans rather than failing a delete that has happened.
 */
export async function deleteTrack(
  ctx: Pick<CatalogueDeps, "db" | "storage" | "log" | "principal">,
  id: string,
): Promise<void> {
  const caller = ctx.principal;
  const [row] = await ctx.db
    .delete(tracks)
    .where(and(eq(tracks.id, id), eq(tracks.artistId, caller.id)))
    .returning({ cover: tracks.cover, sourceKey: tracks.sourceKey });
  if (!row) {
    const [other] = await ctx.db
      .select({ artistId: tracks.artistId })
      .from(tracks)
      .where(eq(tracks.id, id));
    if (other) assertOwner(caller, other.artistId, "track");
    throw trackNotFound(id);
  }
  const { prefix } = trackKeys(id);
  try {
    await deletePrefix(ctx.storage, prefix);
    if (row.sourceKey && !row.sourceKey.startsWith(prefix)) await ctx.storage.delete(row.sourceKey);
  } catch (error) {
    ctx.log.error("deleting a track's files failed", { trackId: id, ...describeError(error) });
  }
  await discardImages(ctx, [row.cover], { trackId: id });
}
