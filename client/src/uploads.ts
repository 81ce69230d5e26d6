// The two ways a track's file reaches the service, with progress: the form upload (one multipart
// POST /tracks through the Worker) and the direct upload of a large file (parts PUT straight to
// storage at presigned URLs, or through the API on its own origin, then completed).
import type { Client } from "openapi-fetch";
import { ProblemError, unwrap } from "./problem.ts";
import type { components, paths } from "./schema.d.ts";
import type { FetchLike, SessionRefresher } from "./session.ts";
import { sendWithProgress } from "./transport.ts";

export type OwnTrack = components["schemas"]["OwnTrack"];

export interface UploadProgress {
  /** Bytes of the file sent so far. */
  loaded: number;
  /** The file's size. */
  total: number;
}

export interface UploadTrackInput {
  file: Blob;
  title: string;
  albumId?: string;
  /** Who may reach the track once made (ADR 0025); public by default. */
  visibility?: "public" | "unlisted" | "private";
  /** The name sent with the file; a File's own name by default. */
  filename?: string;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

export interface DirectUploadInput extends UploadTrackInput {
  /** The file's type when the Blob has none (`audio/wav`, …). */
  contentType?: string;
  /** Parts sent at the same time (3 by default). */
  parallel?: number;
  /**
   * Where the parts go: `"storage"` (default), straight to the presigned URLs on storage's
   * origin; `"api"`, through the API (PUT /uploads/{id}/parts/{n}, with the session's cookies),
   * for apps whose Content-Security-Policy or the bucket's CORS rule forbids storage's origin.
   */
  via?: "storage" | "api";
}

export interface UploadContext {
  api: Client<paths>;
  baseUrl: string;
  fetch: FetchLike;
  refresher: SessionRefresher;
}

const nameOf = (file: Blob, filename?: string) =>
  filename ?? (typeof File === "function" && file instanceof File ? file.name : "upload");

/** A multipart/form-data body around the file; progress counts only the file's bytes. */
function formBody(input: UploadTrackInput): { body: Blob; type: string; head: number } {
  const boundary = `edge-music-${crypto.randomUUID()}`;
  // As browsers encode form names: quotes and line breaks escaped.
  const quoted = (s: string) => s.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = new Blob([
    field("title", input.title),
    input.albumId ? field("albumId", input.albumId) : "",
    input.visibility ? field("visibility", input.visibility) : "",
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(nameOf(input.file, input.filename))}"\r\n`,
    `Content-Type: ${input.file.type || "application/octet-stream"}\r\n\r\n`,
  ]);
  const body = new Blob([head, input.file, `\r\n--${boundary}--\r\n`]);
  return { body, type: `multipart/form-data; boundary=${boundary}`, head: head.size };
}

/** POST /api/v1/tracks: the form upload, with progress; 202 with the track, else a ProblemError. */
export async function uploadTrack(ctx: UploadContext, input: UploadTrackInput): Promise<OwnTrack> {
  const { file, onProgress } = input;
  const { body, type, head } = formBody(input);
  let reported = -1;
  const response = await ctx.refresher.withRetry(() => {
    // A retry after a refresh sends the file again from its first byte.
    reported = -1;
    return sendWithProgress(ctx.fetch, {
      url: `${ctx.baseUrl}/api/v1/tracks`,
      method: "POST",
      headers: { "content-type": type },
      body,
      credentials: "include",
      onSent: (bytes) => {
        const loaded = Math.min(file.size, Math.max(0, bytes - head));
        if (loaded <= reported) return;
        reported = loaded;
        onProgress?.({ loaded, total: file.size });
      },
      ...(input.signal ? { signal: input.signal } : {}),
    });
  });
  if (!response.ok) throw await ProblemError.fromResponse(response);
  return (await response.json()) as OwnTrack;
}

/** One part PUT through the API on its own origin; its ETag is in the JSON answer. */
async function sendPartViaApi(
  ctx: UploadContext,
  uploadId: string,
  partNumber: number,
  body: Blob,
  onSent: (bytes: number) => void,
  signal: AbortSignal | undefined,
): Promise<string> {
  let tries = 0;
  const response = await ctx.refresher.withRetry(() => {
    // A retry after a refresh sends the part again from its first byte.
    if (tries++ > 0) onSent(0);
    return sendWithProgress(ctx.fetch, {
      url: `${ctx.baseUrl}/api/v1/uploads/${encodeURIComponent(uploadId)}/parts/${partNumber}`,
      method: "PUT",
      headers: { "content-type": "application/octet-stream" },
      body,
      credentials: "include",
      onSent,
      ...(signal ? { signal } : {}),
    });
  });
  if (!response.ok) throw await ProblemError.fromResponse(response);
  const { etag } = (await response.json()) as { etag: string };
  return etag;
}

/** One part PUT to its presigned URL on storage's origin; its ETag is the answer's header. */
async function sendPartToStorage(
  ctx: UploadContext,
  url: string,
  partNumber: number,
  body: Blob,
  onSent: (bytes: number) => void,
  signal: AbortSignal | undefined,
): Promise<string> {
  const response = await sendWithProgress(ctx.fetch, {
    url,
    method: "PUT",
    body,
    // Storage, another origin: no cookies.
    credentials: "omit",
    onSent,
    ...(signal ? { signal } : {}),
  });
  const etag = response.headers.get("etag");
  await response.body?.cancel();
  if (!response.ok) throw new Error(`part ${partNumber}: storage answered ${response.status}`);
  // Browsers read it only when the bucket's CORS rule exposes ETag (deploy/r2-cors.json).
  if (!etag) throw new Error(`part ${partNumber}: no ETag in storage's answer`);
  return etag;
}

/**
 * A large file in parts: POST /uploads, each part PUT (its ETag kept), then POST
 * /uploads/{id}/complete: 202 with the track. The parts go to their presigned URLs on storage's
 * origin, or with `via: "api"` through the API's own origin (PUT /uploads/{id}/parts/{n}, with
 * the session's cookies and its refresh). On any failure, or when `signal` fires, the upload is
 * aborted (DELETE /uploads/{id}) and the error thrown.
 */
export async function directUpload(
  ctx: UploadContext,
  input: DirectUploadInput,
): Promise<OwnTrack> {
  const { file, onProgress } = input;
  const started = unwrap(
    await ctx.api.POST("/api/v1/uploads", {
      body: {
        title: input.title,
        filename: nameOf(file, input.filename),
        contentType: input.contentType ?? (file.type || "application/octet-stream"),
        size: file.size,
        ...(input.albumId ? { albumId: input.albumId } : {}),
        ...(input.visibility ? { visibility: input.visibility } : {}),
      },
    }),
  );
  const params = { path: { uploadId: started.uploadId } };
  try {
    const sent = new Map<number, number>();
    const report = () => {
      let loaded = 0;
      for (const bytes of sent.values()) loaded += bytes;
      onProgress?.({ loaded, total: file.size });
    };
    const etags = new Map<number, string>();
    const queue = [...started.parts];
    const sendParts = async () => {
      for (let part = queue.shift(); part; part = queue.shift()) {
        input.signal?.throwIfAborted();
        const { partNumber, url } = part;
        const from = (partNumber - 1) * started.partSize;
        const body = file.slice(from, Math.min(file.size, from + started.partSize));
        const onSent = (bytes: number) => {
          sent.set(partNumber, bytes);
          report();
        };
        const etag =
          input.via === "api"
            ? await sendPartViaApi(ctx, started.uploadId, partNumber, body, onSent, input.signal)
            : await sendPartToStorage(ctx, url, partNumber, body, onSent, input.signal);
        etags.set(partNumber, etag);
      }
    };
    const lanes = Math.max(1, Math.min(input.parallel ?? 3, started.parts.length));
    // A failed part stops the other lanes from taking more.
    const lane = () =>
      sendParts().catch((error: unknown) => {
        queue.length = 0;
        throw error;
      });
    await Promise.all(Array.from({ length: lanes }, lane));
    const parts = [...etags]
      .sort(([a], [b]) => a - b)
      .map(([partNumber, etag]) => ({ partNumber, etag }));
    return unwrap(
      await ctx.api.POST("/api/v1/uploads/{uploadId}/complete", { params, body: { parts } }),
    );
  } catch (error) {
    await ctx.api.DELETE("/api/v1/uploads/{uploadId}", { params }).catch(() => undefined);
    throw error;
  }
}
