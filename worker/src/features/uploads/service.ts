import { albums, type Database, tracks } from "@edge-music/db";
import { and, eq } from "drizzle-orm";
import type Redis from "ioredis";
import { NotFoundError, ServiceUnavailableError, ValidationError } from "../../errors/app-error.ts";
import type { Logger } from "../../logger.ts";
import { deleteMedia, type Image, storeImage } from "../../media/images.ts";
import { enqueueConversion } from "../../services/queue.ts";
import type { ObjectStorage } from "../../storage/index.ts";

export interface UploadContext {
  db: Database;
  redis(): Redis;
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
 * The track row and its conversion job, all or nothing: the row is inserted in a transaction
 * that commits only once Redis has the job. Redis down → 503 and no row (the caller deletes
 * the uploaded objects). If the commit itself fails after the add, the job finds no track and
 * ends quietly.
 */
export async function createUpload(ctx: UploadContext, upload: NewUpload) {
  const { title, source } = validateUpload(upload);
  if (upload.albumId) {
    const [album] = await ctx.db
      .select({ id: albums.id })
      .from(albums)
      .where(and(eq(albums.id, upload.albumId), eq(albums.artistId, upload.artistId)));
    if (!album) throw new NotFoundError("No such album of yours.");
  }
  const cover = upload.cover ? await storeImage(ctx.storage, "covers", upload.cover) : null;
  try {
    return await ctx.db.transaction(async (tx) => {
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
      try {
        await enqueueConversion(ctx.redis(), {
          trackId: upload.trackId,
          artistId: upload.artistId,
          sourceKey: source.key,
          sourceFileName: source.fileName,
        });
      } catch (error) {
        throw new ServiceUnavailableError("The conversion queue is unavailable; try again.", {
          cause: error,
        });
      }
      if (!track) throw new Error("insert returned no track");
      return track;
    });
  } catch (error) {
    await deleteMedia(ctx.storage, [cover]).catch(() => {});
    throw error;
  }
}
