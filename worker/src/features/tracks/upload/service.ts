import { publishTrackState } from "@edge-music/contracts";
import { albums, FOREIGN_KEY_VIOLATION, pgErrorCode, tracks } from "@edge-music/db";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { enqueueConversion, requeueConversion } from "../../../connections/queue.ts";
import {
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../../../errors/app-error.ts";
import { boundaryOf } from "../../../file-input/multipart-stream.ts";
import { IMAGE_MAX_BYTES, type Image, mediaKey, storeImage } from "../../../images/images.ts";
import { describeError } from "../../../logger.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { assertOwner } from "../../../security/guard.ts";
import { confirmSession } from "../../../security/sessions.ts";
import { findTrackQuery, toOwnTrackDto } from "../catalogue/queries.ts";
import type { OwnTrackView } from "../catalogue/schema.ts";
import { readUpload } from "./read-upload.ts";

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

/** The most a request may declare: the audio, a cover and the form's framing. */
const maxBodyBytes = (maxUploadBytes: number) => maxUploadBytes + IMAGE_MAX_BYTES + 64 * 1024;

/** What a failed upload leaves behind, undone in one place (see `undoUpload`). */
interface Undo {
  /** Stored objects: the source as it streams in, then the cover. */
  objects: string[];
  /** The track row, once inserted. */
  row: boolean;
}

/**
 * POST /tracks, all of it: the multipart body is streamed (the audio straight to storage, checked
 * by its bytes), the cover is stored, then the track row is committed and its conversion job
 * added. The row is committed first, so the job always finds its track (a transcoder may take it
 * the moment it is added). Until the job is added, every failure undoes the upload (row, then
 * objects); a refused job is a 503. Answers the artist's view of the new track.
 */
export async function uploadTrack(
  ctx: Pick<RequestDeps, "db" | "redis" | "storage" | "log" | "env" | "principal">,
  request: Request,
): Promise<OwnTrackView> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw new UnsupportedMediaTypeError("Send the upload as multipart/form-data.");
  }
  const maxBytes = ctx.env.MAX_UPLOAD_BYTES;
  if (Number(request.headers.get("content-length") ?? 0) > maxBodyBytes(maxBytes)) {
    throw new PayloadTooLargeError(maxBytes);
  }
  // A revoked session must not get to stream its body to storage first.
  await confirmSession(ctx);
  const trackId = crypto.randomUUID();
  const artistId = ctx.principal.id;
  const undo: Undo = { objects: [], row: false };
  try {
    const form = await readUpload(request.body ?? new ReadableStream(), boundaryOf(contentType), {
      trackId,
      storage: ctx.storage,
      maxBytes,
      uploaded: undo.objects,
    });
    const upload = { trackId, artistId, ...form };
    const { title, source } = validateUpload(upload);
    const cover = upload.cover ? await storeImage(ctx.storage, "covers", upload.cover) : null;
    const coverKey = mediaKey(cover);
    if (coverKey) undo.objects.push(coverKey);
    const row = await insertTrack(ctx, upload, title, source, cover, undo);
    try {
      await enqueueConversion(ctx.redis, {
        trackId,
        artistId,
        sourceKey: source.key,
        sourceFileName: source.fileName,
      });
    } catch (error) {
      throw new ServiceUnavailableError("The conversion queue is unavailable; try again.", {
        cause: error,
      });
    }
    return toOwnTrackDto(row);
  } catch (error) {
    await undoUpload(ctx, trackId, undo);
    throw error;
  }
}

/**
 * Removes what a failed upload made: the row first (then nothing points at the objects), then the
 * objects. Logged, not thrown: the request already fails with its own error. Should the row
 * survive, its objects stay too: the transcoder's reconciler re-adds the missing job later.
 */
async function undoUpload(
  ctx: Pick<RequestDeps, "db" | "storage" | "log">,
  trackId: string,
  undo: Undo,
) {
  if (undo.row) {
    try {
      await ctx.db.delete(tracks).where(eq(tracks.id, trackId));
    } catch (error) {
      ctx.log.error("undoing an upload: the track row stays", { trackId, ...describeError(error) });
      return;
    }
  }
  if (undo.objects.length === 0) return;
  await ctx.storage.delete(undo.objects).catch((error: unknown) => {
    ctx.log.warn("undoing an upload: objects stay behind", { trackId, ...describeError(error) });
  });
}

/**
 * The album id when it is one of the artist's albums, else NULL: a value for an insert, checked in
 * the same statement (the caller tells a NULL apart from a requested album and answers 404).
 */
export const ownAlbum = (albumId: string | null | undefined, artistId: string) =>
  albumId
    ? sql`(select ${albums.id} from ${albums} where ${albums.id} = ${albumId} and ${albums.artistId} = ${artistId})`
    : null;

/**
 * One batch (one round trip): the row, then the artist's view of it. The album is taken only when
 * it is the caller's (else the column gets NULL and the upload is refused and undone); the
 * foreign key holds it until the commit, so it cannot vanish in between.
 */
async function insertTrack(
  ctx: Pick<RequestDeps, "db">,
  upload: NewUpload,
  title: string,
  source: { key: string; fileName: string },
  cover: string | null,
  undo: Undo,
) {
  const { db } = ctx;
  let rows: Awaited<ReturnType<typeof findTrackQuery>>;
  try {
    [, rows] = await db.batch([
      db.insert(tracks).values({
        id: upload.trackId,
        artistId: upload.artistId,
        albumId: ownAlbum(upload.albumId, upload.artistId),
        title,
        cover,
        processingStatus: "PROCESSING",
        sourceKey: source.key,
        sourceFileName: source.fileName,
      }),
      findTrackQuery(db, upload.trackId),
    ]);
  } catch (error) {
    // The album was deleted before the insert committed.
    if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION)
      throw new NotFoundError("No such album of yours.");
    throw error;
  }
  undo.row = true;
  const [row] = rows;
  if (!row) throw new Error("the new track was not read back");
  if (upload.albumId && row.albumId === null) throw new NotFoundError("No such album of yours.");
  return row;
}

/**
 * Queues a FAILED track's conversion again while its source is kept. One batch reads the track as
 * it was and makes it PROCESSING with a clean record (only the owner's FAILED track with a
 * source); then the job is replaced. A refused queue puts the record back (503).
 */
export async function retryConversion(
  ctx: Pick<RequestDeps, "db" | "redis" | "log" | "principal">,
  id: string,
): Promise<OwnTrackView> {
  const { db } = ctx;
  const [[before], restarted, [view]] = await db.batch([
    db
      .select({
        artistId: tracks.artistId,
        status: tracks.processingStatus,
        sourceKey: tracks.sourceKey,
        sourceFileName: tracks.sourceFileName,
        error: tracks.processingError,
        attempts: tracks.processingAttempts,
        startedAt: tracks.processingStartedAt,
        finishedAt: tracks.processingFinishedAt,
      })
      .from(tracks)
      .where(eq(tracks.id, id)),
    db
      .update(tracks)
      .set({
        processingStatus: "PROCESSING",
        processingError: null,
        processingAttempts: 0,
        processingProgress: 0,
        processingStartedAt: null,
        processingFinishedAt: null,
      })
      .where(
        and(
          eq(tracks.id, id),
          eq(tracks.artistId, ctx.principal.id),
          eq(tracks.processingStatus, "FAILED"),
          isNotNull(tracks.sourceKey),
          isNotNull(tracks.sourceFileName),
        ),
      )
      .returning({ id: tracks.id }),
    findTrackQuery(db, id),
  ]);
  if (!before) throw new NotFoundError(`No track with id ${id}.`);
  assertOwner(ctx.principal, before.artistId, "track");
  if (before.status !== "FAILED") {
    throw new ConflictError(
      `Only a FAILED track is converted again; this one is ${before.status}.`,
    );
  }
  if (restarted.length === 0 || !before.sourceKey || !before.sourceFileName || !view) {
    throw new ConflictError("The uploaded file is no longer kept; upload it again.");
  }
  try {
    // Its listeners (and the next to come) learn of the new round before the job can start.
    await publishTrackState(ctx.redis, id, {
      processingStatus: "PROCESSING",
      processingProgress: 0,
      processingError: null,
      processingAttempts: 0,
    });
    await requeueConversion(ctx.redis, {
      trackId: id,
      artistId: before.artistId,
      sourceKey: before.sourceKey,
      sourceFileName: before.sourceFileName,
    });
  } catch (error) {
    await db
      .update(tracks)
      .set({
        processingStatus: "FAILED",
        processingError: before.error,
        processingAttempts: before.attempts,
        processingStartedAt: before.startedAt,
        processingFinishedAt: before.finishedAt,
      })
      .where(and(eq(tracks.id, id), eq(tracks.processingStatus, "PROCESSING")))
      .catch((undo: unknown) =>
        ctx.log.error("a refused retry left the track PROCESSING", {
          trackId: id,
          ...describeError(undo),
        }),
      );
    throw new ServiceUnavailableError("The conversion queue is unavailable; try again.", {
      cause: error,
    });
  }
  return toOwnTrackDto(view);
}
