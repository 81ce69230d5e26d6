// Direct uploads: a multipart upload the artist's client sends straight to storage, then completes
// here; the stored file is checked like a form upload's before its track and job are made.
import { sanitizeFileName, trackKeys } from "@edge-music/contracts";
import { type HttpDatabase, tracks, trackUploads } from "@edge-music/db";
import { and, eq, lt } from "drizzle-orm";
import { enqueueConversion } from "../../connections/queue.ts";
import type { Env } from "../../env.ts";
import {
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../../errors/app-error.ts";
import { AUDIO_SNIFF_BYTES, sniffAudio } from "../../file-input/audio.ts";
import { describeError, type Logger } from "../../logger.ts";
import type { RequestDeps } from "../../request-deps.ts";
import { assertOwner } from "../../security/guard.ts";
import {
  type CompletedPart,
  directUploadStore,
  MultipartRefusedError,
  NoSuchMultipartError,
  s3ApiConfig,
} from "../../storage/direct-upload.ts";
import { findTrackQuery, toOwnTrackDto } from "../tracks/catalogue/queries.ts";
import type { OwnTrackView } from "../tracks/catalogue/schema.ts";
import { ownAlbum } from "../tracks/upload/service.ts";
import { DECLARED_TYPES, partCount, partLength, partSizeFor } from "./schema.ts";

/** How long the part URLs work; an upload not completed by then is aborted. */
export const UPLOAD_TTL_SECONDS = 24 * 60 * 60;

type UploadDeps = Pick<
  RequestDeps,
  "db" | "redis" | "storage" | "log" | "env" | "principal" | "now"
>;

function storeOf(env: Env) {
  const config = s3ApiConfig(env);
  if (!config) {
    throw new ServiceUnavailableError(
      "Direct uploads are not configured on this service; send the file to POST /api/v1/tracks.",
    );
  }
  return directUploadStore(config);
}

const noSuchUpload = (id: string) => new NotFoundError(`No upload with id ${id}.`);
const noSuchAlbum = () => new NotFoundError("No such album of yours.");

export interface StartUpload {
  title: string;
  filename: string;
  contentType: string;
  size: number;
  albumId?: string | undefined;
}

/**
 * Starts the multipart upload in storage, then records it (one round trip, the album checked in
 * it) and signs a URL per part. The upload's id is the future track's.
 */
export async function startUpload(ctx: UploadDeps, input: StartUpload) {
  const max = ctx.env.MAX_DIRECT_UPLOAD_BYTES;
  if (input.size > max) throw new PayloadTooLargeError(max);
  if (!DECLARED_TYPES.includes(input.contentType)) {
    throw new UnsupportedMediaTypeError(
      `The file must be MP3, WAV, FLAC, M4A, OGG or OPUS audio (${DECLARED_TYPES.join(", ")}).`,
    );
  }
  const store = storeOf(ctx.env);
  const id = crypto.randomUUID();
  const fileName = sanitizeFileName(input.filename);
  const key = trackKeys(id).source(fileName);
  const multipartId = await store.start(key, input.contentType);
  const expiresAt = new Date(ctx.now.getTime() + UPLOAD_TTL_SECONDS * 1000);
  const [row] = await ctx.db
    .insert(trackUploads)
    .values({
      id,
      artistId: ctx.principal.id,
      albumId: ownAlbum(input.albumId, ctx.principal.id),
      title: input.title,
      fileName,
      contentType: input.contentType,
      size: input.size,
      storageKey: key,
      multipartId,
      expiresAt,
    })
    .returning({ albumId: trackUploads.albumId });
  if (input.albumId && !row?.albumId) {
    await ctx.db.delete(trackUploads).where(eq(trackUploads.id, id));
    await store.abort(key, multipartId);
    throw noSuchAlbum();
  }
  const parts = await Promise.all(
    Array.from({ length: partCount(input.size) }, async (_, i) => ({
      partNumber: i + 1,
      url: await store.partUrl(key, multipartId, i + 1, UPLOAD_TTL_SECONDS),
    })),
  );
  return {
    uploadId: id,
    partSize: partSizeFor(input.size),
    parts,
    expiresAt: expiresAt.toISOString(),
  };
}

/** The caller's upload: 404 unknown, 403 another artist's. */
async function ownUpload(ctx: Pick<UploadDeps, "db" | "principal">, id: string) {
  const [row] = await ctx.db.select().from(trackUploads).where(eq(trackUploads.id, id));
  if (!row) throw noSuchUpload(id);
  assertOwner(ctx.principal, row.artistId, "upload");
  return row;
}

export interface PartToSend {
  partNumber: number;
  /** The request's Content-Type, if it sent one. */
  contentType: string | undefined;
  /** The request's Content-Length, or null when it sent none. */
  length: number | null;
  body: ReadableStream<Uint8Array> | null;
}

const lengthError = (message: string) =>
  new ValidationError([{ path: "header.content-length", message, code: "invalid_length" }]);

/**
 * One part sent through the Worker (for browsers that may not reach storage's origin): the
 * upload read (its owner, its size, its day), the part's number and exact length checked, then
 * the body streamed to storage's UploadPart. Answers storage's ETag of the part.
 */
export async function sendPart(ctx: UploadDeps, id: string, part: PartToSend) {
  const { partNumber, length, body, contentType } = part;
  // Checked before the read: a request of another type or without its length costs no round trip.
  if (contentType !== undefined && !/^application\/octet-stream\s*(;|$)/i.test(contentType)) {
    throw new UnsupportedMediaTypeError(
      "A part is raw bytes: send it as application/octet-stream, or without a Content-Type.",
    );
  }
  if (length === null) {
    throw lengthError("Content-Length is required: the part's exact size in bytes");
  }
  const upload = await ownUpload(ctx, id);
  // Its part URLs stopped working at the same instant; the hourly clean-up aborts it soon.
  if (upload.expiresAt.getTime() <= ctx.now.getTime()) {
    throw new NotFoundError(`The upload ${id} has expired; start a new one.`);
  }
  const expected = partLength(upload.size, partNumber);
  if (expected === null) {
    const count = partCount(upload.size);
    throw new ValidationError([
      {
        path: "param.partNumber",
        message: `the upload has ${count} part${count === 1 ? "" : "s"}: 1 to ${count}`,
        code: "too_big",
      },
    ]);
  }
  if (length !== expected || !body) {
    throw lengthError(`part ${partNumber} must be exactly ${expected} bytes, not ${length}`);
  }
  try {
    const etag = await storeOf(ctx.env).uploadPart(
      upload.storageKey,
      upload.multipartId,
      partNumber,
      body,
      length,
    );
    return { partNumber, etag };
  } catch (error) {
    if (error instanceof NoSuchMultipartError) throw noSuchUpload(id);
    throw error;
  }
}

/** Why a stored file cannot become a track, or null: its size and its first bytes. */
async function refusal(ctx: UploadDeps, upload: { storageKey: string; size: number }) {
  const head = await ctx.storage.head(upload.storageKey);
  if (!head) return new ValidationError([{ path: "json.parts", message: "no file was stored" }]);
  if (head.size > ctx.env.MAX_DIRECT_UPLOAD_BYTES) {
    return new PayloadTooLargeError(ctx.env.MAX_DIRECT_UPLOAD_BYTES);
  }
  if (head.size !== upload.size) {
    return new ValidationError([
      {
        path: "json.parts",
        message: `the stored file has ${head.size} bytes, not the ${upload.size} announced`,
        code: "size_mismatch",
      },
    ]);
  }
  const start = await ctx.storage.get(upload.storageKey, {
    range: { offset: 0, length: Math.min(AUDIO_SNIFF_BYTES, head.size) },
  });
  const bytes = start ? new Uint8Array(await new Response(start.body).arrayBuffer()) : null;
  if (!bytes || !sniffAudio(bytes)) {
    return new UnsupportedMediaTypeError(
      "The stored file is not MP3, WAV, FLAC, M4A, OGG or OPUS audio.",
    );
  }
  return null;
}

/**
 * Completes the multipart upload, checks the stored file (size, type by its bytes), then makes
 * the track and removes the upload in one batch, and queues the job. A refused file is deleted
 * with its upload. A queue that cannot be reached does not lose the file: the track stays
 * PROCESSING and the transcoder's reconciler adds the missing job.
 */
export async function completeUpload(
  ctx: UploadDeps,
  id: string,
  parts: CompletedPart[],
): Promise<OwnTrackView> {
  const upload = await ownUpload(ctx, id);
  const store = storeOf(ctx.env);
  try {
    await store.complete(upload.storageKey, upload.multipartId, parts);
  } catch (error) {
    if (!(error instanceof MultipartRefusedError)) throw error;
    throw new ValidationError([
      { path: "json.parts", message: error.message, code: error.s3Code.toLowerCase() },
    ]);
  }
  const refused = await refusal(ctx, upload);
  if (refused) {
    await ctx.db.delete(trackUploads).where(eq(trackUploads.id, id));
    await ctx.storage.delete(upload.storageKey).catch((error: unknown) => {
      ctx.log.warn("a refused upload's file stays", { uploadId: id, ...describeError(error) });
    });
    throw refused;
  }
  const { db } = ctx;
  const [, removed, [view]] = await db.batch([
    db.insert(tracks).values({
      id,
      artistId: upload.artistId,
      albumId: ownAlbum(upload.albumId, upload.artistId),
      title: upload.title,
      processingStatus: "PROCESSING",
      sourceKey: upload.storageKey,
      sourceFileName: upload.fileName,
    }),
    db.delete(trackUploads).where(eq(trackUploads.id, id)).returning({ id: trackUploads.id }),
    findTrackQuery(db, id),
  ]);
  if (removed.length === 0 || !view) throw noSuchUpload(id);
  try {
    await enqueueConversion(ctx.redis, {
      trackId: id,
      artistId: upload.artistId,
      sourceKey: upload.storageKey,
      sourceFileName: upload.fileName,
    });
  } catch (error) {
    ctx.log.warn("a completed upload's job waits for the reconciler", {
      trackId: id,
      ...describeError(error),
    });
  }
  return toOwnTrackDto(view);
}

/** Aborts the upload in storage and forgets it. */
export async function abortUpload(ctx: UploadDeps, id: string): Promise<void> {
  const upload = await ownUpload(ctx, id);
  await storeOf(ctx.env).abort(upload.storageKey, upload.multipartId);
  await ctx.db.delete(trackUploads).where(eq(trackUploads.id, id));
}

/**
 * Aborts the uploads whose time is up (the scheduled handler, hourly), at most `batch` a run.
 * Answers how many went.
 */
export async function abortExpiredUploads(
  deps: { db: HttpDatabase; env: Env; log: Logger; now: Date },
  batch = 100,
): Promise<number> {
  const config = s3ApiConfig(deps.env);
  if (!config) return 0;
  const store = directUploadStore(config);
  const expired = await deps.db
    .select()
    .from(trackUploads)
    .where(lt(trackUploads.expiresAt, deps.now))
    .limit(batch);
  let aborted = 0;
  for (const upload of expired) {
    try {
      await store.abort(upload.storageKey, upload.multipartId);
      await deps.db
        .delete(trackUploads)
        .where(and(eq(trackUploads.id, upload.id), lt(trackUploads.expiresAt, deps.now)));
      aborted++;
    } catch (error) {
      deps.log.warn("aborting an expired upload failed", {
        uploadId: upload.id,
        ...describeError(error),
      });
    }
  }
  return aborted;
}
