import { albums, type Database, tracks } from "@edge-music/db";
import { and, eq } from "drizzle-orm";
import { enqueueConversion } from "../../../connections/queue.ts";
import type { RedisClient } from "../../../connections/redis.ts";
import {
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from "../../../errors/app-error.ts";
import { deleteMedia, type Image, storeImage } from "../../../file-input/images.ts";
import type { Logger } from "../../../logger.ts";
import type { ObjectStorage } from "../../../storage/index.ts";

export interface UploadContext {
  db: Database;
  redis(): RedisClient;
  storage: ObjectStorage;
  log: Logger;
}

export interface NewUpload {
  trackId: string;
  artistId: string;
  title: string | undefined;
  albumId: string | undefined;
  cover: Image | undefined;
  source: { key: string; fileName: string } | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The form's rules, checked once the whole body has been read. */
export function validateUpload(upload: NewUpload) {
  const errors = [];
  const title = upload.title?.trim();
  if (!upload.source) errors.push({ path: "form.file", message: "is required", code: "required" });
  if (!title) errors.push({ path: "form.title", message: "is required", code: "required" });
  else if (title.length > 200)
    errors.push({ path: "form.title", message: "at most 200 characters" });
  if (upload.albumId !== undefined && !UUID.test(upload.albumId)) {
    errors.push({ path: "form.albumId", message: "must be a UUID", code: "invalid_format" });
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return { title: title as string, source: upload.source as NonNullable<NewUpload["source"]> };
}

/**
 * The track row and its conversion job, all or nothing. The row is committed first, so the job
 * always finds its track (a transcoder may take it the moment it is added); if Redis refuses the
 * job, the row is deleted again and the answer is 503 (the caller deletes the uploaded objects).
 * Should even that delete fail, the transcoder's reconciler re-adds the missing job later.
 */
export async function createUpload(ctx: UploadContext, upload: NewUpload) {
  const { title, source } = validateUpload(upload);
  const cover = upload.cover ? await storeImage(ctx.storage, "covers", upload.cover) : null;
  try {
    const track = await insertTrack(ctx, upload, title, source, cover);
    try {
      await enqueueConversion(ctx.redis(), {
        trackId: track.id,
        artistId: upload.artistId,
        sourceKey: source.key,
        sourceFileName: source.fileName,
      });
    } catch (error) {
      await ctx.db.delete(tracks).where(eq(tracks.id, track.id));
      throw new ServiceUnavailableError("The conversion queue is unavailable; try again.", {
        cause: error,
      });
    }
    return track;
  } catch (error) {
    await deleteMedia(ctx.storage, [cover]).catch(() => {});
    throw error;
  }
}

async function insertTrack(
  ctx: UploadContext,
  upload: NewUpload,
  title: string,
  source: { key: string; fileName: string },
  cover: string | null,
) {
  return await ctx.db.transaction(async (tx) => {
    if (upload.albumId) {
      // Locked, so the album cannot be deleted between this check and the insert.
      const [album] = await tx
        .select({ id: albums.id })
        .from(albums)
        .where(and(eq(albums.id, upload.albumId), eq(albums.artistId, upload.artistId)))
        .for("share");
      if (!album) throw new NotFoundError("No such album of yours.");
    }
    const [track] = await tx
      .insert(tracks)
      .values({
        id: upload.trackId,
        artistId: upload.artistId,
        albumId: upload.albumId ?? null,
        title,
        cover,
        processingStatus: "PROCESSING",
        sourceKey: source.key,
        sourceFileName: source.fileName,
      })
      .returning();
    if (!track) throw new Error("insert returned no track");
    return track;
  });
}
