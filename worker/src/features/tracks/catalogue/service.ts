import { trackKeys } from "@edge-music/contracts";
import { albums, tracks, type Visibility } from "@edge-music/db";
import { and, eq, sql } from "drizzle-orm";
import { discardConversionJobs } from "../../../connections/queue.ts";
import { NotFoundError } from "../../../errors/app-error.ts";
import type { Image } from "../../../images/images.ts";
import { discardImages, replaceImages } from "../../../images/replace.ts";
import { describeError } from "../../../logger.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { assertOwner } from "../../../security/guard.ts";
import { signatureQuery, signStream } from "../../../security/stream-signature.ts";
import { deletePrefix } from "../../../storage/index.ts";
import type { Page } from "../../../validation/common.ts";
import {
  findTrackQuery,
  readyTracks,
  type TrackFilter,
  toOwnTrackDto,
  toTrackDto,
} from "./queries.ts";
import type { OwnTrackView, SharedTrackView, TrackView } from "./schema.ts";

/** What the track services take; each function picks what it uses. */
type CatalogueDeps = Pick<
  RequestDeps,
  "db" | "redis" | "storage" | "log" | "principal" | "viewer" | "env" | "now"
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
 * A READY public track for everyone; an unlisted READY track for whoever gives its share key
 * (compared in SQL: a wrong key reads as a missing row), with signed stream URLs; a track in any
 * other state or visibility only for its owning artist. To anyone else it does not exist (404,
 * not 403: an unpublished upload is nobody else's business). The owner always gets the
 * processing fields. One statement.
 */
export async function getTrack(
  ctx: Pick<CatalogueDeps, "db" | "viewer" | "env" | "now">,
  id: string,
  key: string | undefined,
): Promise<TrackView | OwnTrackView | SharedTrackView> {
  const caller = ctx.viewer;
  const [row] = await findTrackQuery(ctx.db, id, key);
  const own = caller?.kind === "artist" && row?.artistId === caller.id;
  if (!row) throw trackNotFound(id);
  if (own) return toOwnTrackDto(row);
  if (row.processingStatus !== "READY") throw trackNotFound(id);
  if (row.visibility === "public") return toTrackDto(row);
  if (row.visibility !== "unlisted" || !row.keyMatches) throw trackNotFound(id);
  return await sharedTrack(ctx, toTrackDto(row), row.shareKey);
}

/**
 * An unlisted track as the holder of a key that opens it sees it: the public fields and signed
 * URLs of its files (ADR 0026), signed with the track's own share key, so that rotating it ends
 * them. For a track read with its own key, and an album's unlisted track read with the album's.
 */
export async function sharedTrack(
  ctx: Pick<CatalogueDeps, "env" | "now">,
  track: TrackView,
  shareKey: string,
): Promise<SharedTrackView> {
  const signature = await signStream(ctx.env.JWT_SECRET, track.id, shareKey, ctx.now);
  const query = signatureQuery(signature);
  return {
    ...track,
    visibility: "unlisted",
    stream: {
      master: `/api/v1/tracks/stream/${track.id}/hls/master.m3u8?${query}`,
      query,
      expiresAt: new Date(signature.exp * 1000).toISOString(),
    },
  };
}

export interface TrackUpdate {
  title?: string | undefined;
  albumId?: string | null | undefined;
  visibility?: Visibility | undefined;
  cover?: Image | undefined;
}

/**
 * One batch (one round trip): the track is locked (so the cover it had is the one replaced) and
 * the album locked FOR SHARE (it cannot be deleted before the update commits) and read; the
 * update applies only when the caller owns both; the track is read back. The answer is decided
 * from what the batch read, and nothing was written otherwise. A new cover is stored before that
 * batch, after the owner is checked (a stranger's upload never reaches storage): two round trips.
 */
export async function updateTrack(
  ctx: Pick<CatalogueDeps, "db" | "storage" | "log" | "principal">,
  id: string,
  update: TrackUpdate,
): Promise<OwnTrackView> {
  const { db, principal: caller } = ctx;
  const fields = {
    ...(update.title !== undefined ? { title: update.title } : {}),
    ...(update.albumId !== undefined ? { albumId: update.albumId } : {}),
    ...(update.visibility !== undefined ? { visibility: update.visibility } : {}),
  };
  const owner = () =>
    db
      .select({ artistId: tracks.artistId, cover: tracks.cover })
      .from(tracks)
      .where(eq(tracks.id, id));
  const assertOwnTrack = ([track]: Awaited<ReturnType<typeof owner>>) => {
    if (!track) throw trackNotFound(id);
    assertOwner(caller, track.artistId, "track");
    return track;
  };
  if (update.cover) assertOwnTrack(await owner());
  const images = update.cover ? { cover: { folder: "covers" as const, image: update.cover } } : {};
  const albumId = fields.albumId ?? null;
  const ownAlbum = albumId
    ? sql`exists (select from ${albums} where ${albums.id} = ${albumId} and ${albums.artistId} = ${caller.id})`
    : sql`true`;
  return await replaceImages(ctx, images, async (stored) => {
    const [locked, album, , rows] = await db.batch([
      owner().for("update"),
      db
        .select({ id: albums.id })
        .from(albums)
        .where(albumId ? and(eq(albums.id, albumId), eq(albums.artistId, caller.id)) : sql`false`)
        .for("share"),
      db
        .update(tracks)
        // `id` (unchanged) keeps the SET list non-empty whatever the caller sent.
        .set({ ...fields, ...stored, id })
        .where(and(eq(tracks.id, id), eq(tracks.artistId, caller.id), ownAlbum)),
      findTrackQuery(db, id),
    ]);
    const track = assertOwnTrack(locked);
    if (albumId && album.length === 0)
      throw new NotFoundError(`No album of yours with id ${albumId}.`);
    const [row] = rows;
    if (!row) throw trackNotFound(id);
    return { previous: { cover: track.cover }, result: toOwnTrackDto(row) };
  });
}

/**
 * Deletes the row (its file records, playlist entries and listens cascade in the schema), then
 * its conversion job, every object under tracks/<id>/, the upload's source if it lies elsewhere, and the cover.
 * Storage comes second: once the row is gone nothing can reach the objects, so a storage failure
 * is logged and leaves harmless orphans rather than failing a delete that has happened.
 */
export async function deleteTrack(
  ctx: Pick<CatalogueDeps, "db" | "redis" | "storage" | "log" | "principal">,
  id: string,
): Promise<void> {
  const caller = ctx.principal;
  const [row] = await ctx.db
    .delete(tracks)
    .where(and(eq(tracks.id, id), eq(tracks.artistId, caller.id)))
    .returning({
      cover: tracks.cover,
      sourceKey: tracks.sourceKey,
      sourceFileName: tracks.sourceFileName,
    });
  if (!row) {
    const [other] = await ctx.db
      .select({ artistId: tracks.artistId })
      .from(tracks)
      .where(eq(tracks.id, id));
    if (other) assertOwner(caller, other.artistId, "track");
    throw trackNotFound(id);
  }
  await discardConversionJobs(ctx, [{ trackId: id, sourceFileName: row.sourceFileName }]);
  const { prefix } = trackKeys(id);
  try {
    await deletePrefix(ctx.storage, prefix);
    if (row.sourceKey && !row.sourceKey.startsWith(prefix)) await ctx.storage.delete(row.sourceKey);
  } catch (error) {
    ctx.log.error("deleting a track's files failed", { trackId: id, ...describeError(error) });
  }
  await discardImages(ctx, [row.cover], { trackId: id });
}
