import { FOREIGN_KEY_VIOLATION, pgErrorCode } from "@edge-music/db";
import {
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../../../errors/app-error.ts";
import { boundaryOf } from "../../../file-input/multipart-stream.ts";
import { IMAGE_MAX_BYTES, type Image, mediaKey, storeImage } from "../../../images/images.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { confirmSession } from "../../../security/sessions.ts";
import { Visibility } from "../../sharing/schema.ts";
import { findTrackQuery, toOwnTrackDto } from "../catalogue/queries.ts";
import type { OwnTrackView } from "../catalogue/schema.ts";
import {
  type NewTrackLeftovers,
  newTrackInsert,
  queueConversion,
  removeNewTrack,
} from "../conversion/service.ts";
import { readUpload } from "./read-upload.ts";

export interface NewUpload {
  trackId: string;
  artistId: string;
  title: string | undefined;
  albumId: string | undefined;
  visibility: string | undefined;
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
  const visibility =
    upload.visibility === undefined ? undefined : Visibility.safeParse(upload.visibility);
  if (visibility && !visibility.success) {
    errors.push({
      path: "form.visibility",
      message: "must be public, unlisted or private",
      code: "invalid_value",
    });
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return {
    title: title as string,
    visibility: visibility?.data,
    source: upload.source as NonNullable<NewUpload["source"]>,
  };
}

/** The most a request may declare: the audio, a cover and the form's framing. */
const maxBodyBytes = (maxUploadBytes: number) => maxUploadBytes + IMAGE_MAX_BYTES + 64 * 1024;

/**
 * POST /tracks, all of it: the multipart body is streamed (the audio straight to storage, checked
 * by its bytes), the cover is stored, then the track row is committed PROCESSING and its
 * conversion queued (conversion/service.ts, whose policy for a refused queue undoes the upload
 * and answers 503). Every failure before that undoes the upload too (row, then objects). Answers
 * the artist's view of the new track.
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
  const undo: NewTrackLeftovers = { objects: [], row: false };
  let row: Awaited<ReturnType<typeof insertTrack>>;
  let source: { key: string; fileName: string };
  try {
    const form = await readUpload(request.body ?? new ReadableStream(), boundaryOf(contentType), {
      trackId,
      storage: ctx.storage,
      maxBytes,
      uploaded: undo.objects,
    });
    const upload = { trackId, artistId, ...form };
    const valid = validateUpload(upload);
    source = valid.source;
    const cover = upload.cover ? await storeImage(ctx.storage, "covers", upload.cover) : null;
    const coverKey = mediaKey(cover);
    if (coverKey) undo.objects.push(coverKey);
    row = await insertTrack(ctx, upload, valid, cover, undo);
  } catch (error) {
    await removeNewTrack(ctx, trackId, undo);
    throw error;
  }
  const job = { trackId, artistId, sourceKey: source.key, sourceFileName: source.fileName };
  await queueConversion(ctx, job, { undo: () => removeNewTrack(ctx, trackId, undo) });
  return toOwnTrackDto(row);
}

/**
 * One batch (one round trip): the row, then the artist's view of it. The album is taken only when
 * it is the caller's (else the column gets NULL and the upload is refused and undone); the
 * foreign key holds it until the commit, so it cannot vanish in between.
 */
async function insertTrack(
  ctx: Pick<RequestDeps, "db">,
  upload: NewUpload,
  { title, visibility, source }: ReturnType<typeof validateUpload>,
  cover: string | null,
  undo: NewTrackLeftovers,
) {
  const { db } = ctx;
  let rows: Awaited<ReturnType<typeof findTrackQuery>>;
  try {
    [, rows] = await db.batch([
      newTrackInsert(db, {
        id: upload.trackId,
        artistId: upload.artistId,
        albumId: upload.albumId,
        title,
        visibility,
        cover,
        source,
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
