// Direct uploads: a multipart upload the artist's client sends straight to storage, then completes
// here; the stored file is checked like a form upload's before its track and job are made.
import { sanitizeFileName, trackKeys } from "@edge-music/contracts";
import { type HttpDatabase, trackUploads, type Visibility } from "@edge-music/db";
import { and, asc, eq, gt, inArray, lt } from "drizzle-orm";
import type { Env } from "../../../env.ts";
import {
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../../../errors/app-error.ts";
import {
  ACCEPTED_AUDIO_LIST,
  AUDIO_SNIFF_BYTES,
  notAudioMessage,
  sniffAudio,
} from "../../../file-input/audio.ts";
import { describeError, type Logger } from "../../../logger.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { assertOwner } from "../../../security/guard.ts";
import { refundQuery } from "../../../security/rate-limit.ts";
import {
  type CompletedPart,
  directUploadStore,
  MultipartRefusedError,
  NoSuchMultipartError,
  s3ApiConfig,
} from "../../../storage/direct-upload.ts";
import { findTrackQuery, toOwnTrackDto } from "../catalogue/queries.ts";
import type { OwnTrackView } from "../catalogue/schema.ts";
import { newTrackInsert, queueConversion, removeNewTrack } from "../conversion/service.ts";
import {
  dayKey,
  PENDING_MULTIPART,
  type Reservation,
  refusalOf,
  reservationStatements,
  uploadLimits,
} from "./limits.ts";
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

export interface StartUpload {
  title: string;
  filename: string;
  contentType: string;
  size: number;
  albumId?: string | undefined;
  visibility?: Visibility | undefined;
}

/**
 * Takes the upload's place within the artist's limits (limits.ts: the open uploads, their bytes,
 * the day's starts; 409 or 429 otherwise) in the request's first round trip, which also checks
 * the session: nothing reaches storage for a refused start or an ended session. Then storage
 * starts the multipart upload, its id is recorded (a second round trip), and a URL is signed per
 * part, bound to the part's length. The upload's id is the future track's.
 */
export async function startUpload(ctx: UploadDeps, input: StartUpload) {
  const max = ctx.env.MAX_DIRECT_UPLOAD_BYTES;
  if (input.size > max) throw new PayloadTooLargeError(max);
  if (!DECLARED_TYPES.includes(input.contentType)) {
    throw new UnsupportedMediaTypeError(
      `The file must be ${ACCEPTED_AUDIO_LIST} audio (${DECLARED_TYPES.join(", ")}).`,
    );
  }
  const store = storeOf(ctx.env);
  const id = crypto.randomUUID();
  const fileName = sanitizeFileName(input.filename);
  const upload = {
    id,
    artistId: ctx.principal.id,
    albumId: input.albumId,
    title: input.title,
    visibility: input.visibility ?? "public",
    fileName,
    contentType: input.contentType,
    size: input.size,
    storageKey: trackKeys(id).source(fileName),
    expiresAt: new Date(ctx.now.getTime() + UPLOAD_TTL_SECONDS * 1000),
  };
  const limits = uploadLimits(ctx.env);
  const { db } = ctx;
  const [, reserve] = await db.batch(reservationStatements(db, upload, limits, ctx.now));
  const refused = refusalOf(
    (reserve as unknown as { rows: Reservation[] }).rows[0] as Reservation,
    upload,
    limits,
    ctx.now,
  );
  if (refused) throw refused;
  const multipartId = await store
    .start(upload.storageKey, upload.contentType)
    .catch(async (error: unknown) => {
      await giveBack(ctx, id);
      throw error;
    });
  // The row may be gone: the account was deleted meanwhile (which aborts what it finds).
  const [recorded] = await db
    .update(trackUploads)
    .set({ multipartId })
    .where(and(eq(trackUploads.id, id), eq(trackUploads.multipartId, PENDING_MULTIPART)))
    .returning({ id: trackUploads.id });
  if (!recorded) {
    await store.abort(upload.storageKey, multipartId);
    throw noSuchUpload(id);
  }
  const parts = await Promise.all(
    Array.from({ length: partCount(input.size) }, async (_, i) => ({
      partNumber: i + 1,
      url: await store.partUrl(
        upload.storageKey,
        multipartId,
        i + 1,
        UPLOAD_TTL_SECONDS,
        partLength(input.size, i + 1) ?? 0,
      ),
    })),
  );
  return {
    uploadId: id,
    partSize: partSizeFor(input.size),
    parts,
    expiresAt: upload.expiresAt.toISOString(),
  };
}

/** A reserved upload that storage did not start: its place and its count for the day go back. */
async function giveBack(ctx: Pick<UploadDeps, "db" | "log" | "principal">, id: string) {
  const { db } = ctx;
  await db
    .batch([
      db.delete(trackUploads).where(eq(trackUploads.id, id)),
      refundQuery(db, [dayKey(ctx.principal.id)]),
    ])
    .catch((error: unknown) => {
      // It holds its place until its day is over; the clean-up then removes it.
      ctx.log.warn("a reserved upload stays", { uploadId: id, ...describeError(error) });
    });
}

/** The caller's upload: 404 unknown, 403 another artist's. */
async function ownUpload(ctx: Pick<UploadDeps, "db" | "principal">, id: string) {
  const [row] = await ctx.db.select().from(trackUploads).where(eq(trackUploads.id, id));
  // A row still PENDING_MULTIPART is a start in progress: its id has not been answered to anyone.
  if (!row || row.multipartId === PENDING_MULTIPART) throw noSuchUpload(id);
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
    return new UnsupportedMediaTypeError(notAudioMessage(bytes ?? new Uint8Array()));
  }
  return null;
}

/**
 * Completes the multipart upload, checks the stored file (size, type by its bytes), then makes
 * the track and removes the upload in one batch, and queues its conversion
 * (conversion/service.ts: a refused queue removes the track and its file, and answers 503). A
 * refused file is deleted with its upload.
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
    newTrackInsert(db, {
      id,
      artistId: upload.artistId,
      albumId: upload.albumId,
      title: upload.title,
      visibility: upload.visibility,
      source: { key: upload.storageKey, fileName: upload.fileName },
    }),
    db.delete(trackUploads).where(eq(trackUploads.id, id)).returning({ id: trackUploads.id }),
    findTrackQuery(db, id),
  ]);
  if (removed.length === 0 || !view) throw noSuchUpload(id);
  const job = {
    trackId: id,
    artistId: upload.artistId,
    sourceKey: upload.storageKey,
    sourceFileName: upload.fileName,
  };
  await queueConversion(ctx, job, {
    undo: () => removeNewTrack(ctx, id, { row: true, objects: [upload.storageKey] }),
  });
  return toOwnTrackDto(view);
}

/** Aborts the upload in storage and forgets it. */
export async function abortUpload(ctx: UploadDeps, id: string): Promise<void> {
  const upload = await ownUpload(ctx, id);
  await storeOf(ctx.env).abort(upload.storageKey, upload.multipartId);
  await ctx.db.delete(trackUploads).where(eq(trackUploads.id, id));
}

type StoredUpload = Pick<typeof trackUploads.$inferSelect, "id" | "storageKey" | "multipartId">;

/**
 * Aborts these multipart uploads in storage, all at once (the runtime queues what exceeds its
 * open connections). A failure is logged, not thrown: the bucket's lifecycle rule aborts what is
 * left after a day. An upload still PENDING_MULTIPART has nothing in storage. Answers the ids
 * that storage no longer holds.
 */
export async function abortInStorage(
  deps: { env: Env; log: Logger },
  uploads: StoredUpload[],
): Promise<string[]> {
  const config = s3ApiConfig(deps.env);
  if (!config || uploads.length === 0) return [];
  const store = directUploadStore(config);
  const results = await Promise.allSettled(
    uploads.map((upload) =>
      upload.multipartId === PENDING_MULTIPART
        ? Promise.resolve()
        : store.abort(upload.storageKey, upload.multipartId),
    ),
  );
  return uploads.flatMap((upload, i) => {
    const result = results[i];
    if (result?.status === "fulfilled") return [upload.id];
    deps.log.warn("aborting an upload in storage failed", {
      uploadId: upload.id,
      ...describeError(result?.reason),
    });
    return [];
  });
}

/**
 * What one clean-up run may spend. Uploads expire at the pace they started a day before: up to
 * MAX_DIRECT_UPLOADS_PER_DAY per artist. A run aborts batch after batch until none is left, or
 * its time or its subrequests run out (the next run goes on from there). Time: 25 s of wall time;
 * the work is waiting on storage, far from the 30 s of CPU a scheduled invocation gets by
 * default. Subrequests: one an abort, two more a batch (the read and the delete), kept under the
 * 10,000 an invocation may make on Workers Paid: at most 8,800 aborts a run (88 batches).
 * Measured against the local S3 server: 3,000 aborted in 4.0 s (750/s), so the subrequests bind;
 * against R2 at 6 connections and 30–100 ms an abort, 25 s is 1,500–5,000 a run.
 */
export const CLEANUP_BUDGET = { batch: 100, ms: 25_000, subrequests: 9_000 };

/**
 * Aborts the uploads whose time is up (the scheduled handler, hourly), in batches of parallel
 * aborts, until none is left or the budget is spent. Rows go once storage has aborted theirs; an
 * upload whose abort failed is passed over and tried again next run.
 * Answers how many went.
 */
export async function abortExpiredUploads(
  deps: { db: HttpDatabase; env: Env; log: Logger; now: Date },
  budget = CLEANUP_BUDGET,
): Promise<number> {
  if (!s3ApiConfig(deps.env)) return 0;
  const { db, now } = deps;
  const deadline = Date.now() + budget.ms;
  const expired = lt(trackUploads.expiresAt, now);
  // Keyset on the id: an upload whose abort failed stays behind the cursor until the next run.
  let after: string | null = null;
  let aborted = 0;
  let subrequests = 0;
  while (Date.now() < deadline && subrequests + budget.batch + 2 <= budget.subrequests) {
    const batch: StoredUpload[] = await db
      .select({
        id: trackUploads.id,
        storageKey: trackUploads.storageKey,
        multipartId: trackUploads.multipartId,
      })
      .from(trackUploads)
      .where(and(expired, after ? gt(trackUploads.id, after) : undefined))
      .orderBy(asc(trackUploads.id))
      .limit(budget.batch);
    subrequests += 1 + batch.length;
    const last = batch.at(-1);
    if (!last) break;
    after = last.id;
    const gone = await abortInStorage(deps, batch);
    if (gone.length > 0) {
      await db.delete(trackUploads).where(and(inArray(trackUploads.id, gone), expired));
      subrequests++;
      aborted += gone.length;
    }
    // Storage refused the whole batch: it is down or busy; the next run tries again.
    if (gone.length === 0 || batch.length < budget.batch) break;
  }
  return aborted;
}
