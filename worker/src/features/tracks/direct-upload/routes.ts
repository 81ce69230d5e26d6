import { createRoute, z } from "@hono/zod-openapi";
import { ACCEPTED_AUDIO_LIST } from "../../../file-input/audio.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, jsonBody, newRouter } from "../../../openapi/router.ts";
import { signedIn } from "../../../security/guard.ts";
import { uuidParam } from "../../../validation/common.ts";
import { OwnTrackDto } from "../catalogue/schema.ts";
import {
  CompleteUploadBody,
  DirectUploadDto,
  PartParams,
  StartUploadBody,
  UploadedPartDto,
} from "./schema.ts";
import { abortUpload, completeUpload, sendPart, startUpload } from "./service.ts";

const tags = ["Tracks"];
const Params = z.object({ uploadId: uuidParam("uploadId") });

const start = createRoute({
  method: "post",
  path: "/",
  operationId: "startDirectUpload",
  tags,
  ...signedIn("artist"),
  summary: "Start a direct upload of a large file",
  description: [
    "For files too large for one request (`POST /tracks` takes at most MAX_UPLOAD_BYTES, 100 MB by default): the file goes straight to storage in parts, never through this service. Up to MAX_DIRECT_UPLOAD_BYTES (2 GiB by default; else 413).",
    "Answers 201 with `uploadId`, `partSize` and one presigned URL per part: PUT bytes `[(n-1)·partSize, n·partSize)` of the file to part `n`'s URL (the last part holds the rest) and keep each answer's `ETag` header. Each URL is signed with its part's exact `Content-Length`: storage refuses a body of any other length (403). Then `POST /uploads/{uploadId}/complete` with the parts, or `DELETE /uploads/{uploadId}` to give up. The URLs work for 24 hours; an upload not completed by then is aborted, and so are an artist's uploads when the account is deleted.",
    "Limits per artist, checked before storage is asked for anything: at most MAX_OPEN_DIRECT_UPLOADS (10 by default) uploads open at once (started, neither completed, aborted nor past `expiresAt`), declaring at most MAX_OPEN_DIRECT_UPLOAD_BYTES together (by default 4 × MAX_DIRECT_UPLOAD_BYTES, 8 GiB): else 409, with `openUploads` and `maxOpenUploads` (and `openBytes`, `maxOpenBytes` when the bytes are over) in the problem; complete or abort an upload to free its place. At most MAX_DIRECT_UPLOADS_PER_DAY (50 by default) uploads started in a day (a window of 24 hours from the first): else 429 with Retry-After. A refused start counts against nothing.",
    `\`contentType\` must name a type of ${ACCEPTED_AUDIO_LIST} audio (else 415); the stored file's bytes are checked again on completion. \`albumId\`: one of the caller's albums (else 404). 503 when the service has no S3 API for its bucket configured.`,
  ].join("\n\n"),
  request: jsonBody(StartUploadBody),
  responses: {
    201: json(DirectUploadDto, "Started: send the parts."),
    ...problemResponses(400, 401, 403, 404, 409, 413, 415, 429, 503),
  },
});

const part = createRoute({
  method: "put",
  path: "/{uploadId}/parts/{partNumber}",
  operationId: "uploadDirectUploadPart",
  tags,
  ...signedIn("artist"),
  summary: "Send one part of a direct upload through this service",
  description: [
    "The same-origin alternative to the presigned part URLs, for browser apps whose Content-Security-Policy (`connect-src 'self'`) or the bucket's CORS rule forbids storage's origin: the body, the part's raw bytes, is streamed to storage as it arrives. Send part `n` as bytes `[(n-1)·partSize, n·partSize)` of the file (the last part holds the rest), as `application/octet-stream` or without a Content-Type (any other type: 415, before anything is read); answers 200 with storage's `etag` of the part, to send with its number to `POST /uploads/{uploadId}/complete`. Sending a part again replaces it.",
    "`Content-Length` is required and must be exactly the part's size (else 400, `errors[0].path` `header.content-length`): a body of unknown length (chunked) is refused before it is read. `partNumber`: 1 to the upload's part count (else 400). Another artist's upload: 403; unknown, completed, aborted or past its `expiresAt`: 404. A part is 8 MiB (MAX_DIRECT_UPLOAD_BYTES is at most 50 GiB), well under the platform's 100 MB request cap. 503 when storage cannot be reached or is busy (send the part again) or no S3 API is configured.",
  ].join("\n\n"),
  request: {
    params: PartParams,
    body: {
      required: true,
      content: {
        "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) },
      },
    },
  },
  responses: {
    200: json(UploadedPartDto, "Stored: keep the ETag for the completion."),
    ...problemResponses(400, 401, 403, 404, 415, 503),
  },
});

const complete = createRoute({
  method: "post",
  path: "/{uploadId}/complete",
  operationId: "completeDirectUpload",
  tags,
  ...signedIn("artist"),
  summary: "Complete a direct upload: the track is made and converted",
  description:
    "With every part's number and ETag, in ascending order. The parts are joined in storage, then the file is checked as a form upload is: its size (the announced one, at most MAX_DIRECT_UPLOAD_BYTES: else 400 `size_mismatch` or 413) and its type by its bytes (else 415, whose detail says what was found, as for the form upload); a refused file is deleted with its upload. Then the track is made, PROCESSING, with the upload's id, and its conversion job queued: 202 with the artist's view of the track. Parts that storage refuses (missing, too small, a wrong ETag) answer 400 with storage's reason in `errors[0].code`. Another artist's upload: 403; unknown, already completed or aborted: 404. If the conversion queue is unreachable: 503, and nothing is kept (the track and the stored file are removed, as for the form upload): upload it again. The track takes the cover art embedded in the file (ID3 APIC, FLAC/Vorbis picture, MP4 `covr`) when its conversion is READY, as a JPEG of at most 1200 × 1200, unless a cover was set before then.",
  request: { params: Params, ...jsonBody(CompleteUploadBody) },
  responses: {
    202: json(OwnTrackDto, "Accepted: converting."),
    ...problemResponses(400, 401, 403, 404, 413, 415, 503),
  },
});

const abort = createRoute({
  method: "delete",
  path: "/{uploadId}",
  operationId: "abortDirectUpload",
  tags,
  ...signedIn("artist"),
  summary: "Abort a direct upload",
  description:
    "Drops the parts sent so far and forgets the upload; no track is made. Another artist's upload: 403; unknown or already completed: 404.",
  request: { params: Params },
  responses: {
    204: { description: "Aborted." },
    ...problemResponses(400, 401, 403, 404, 503),
  },
});

/** /api/v1/uploads: direct multipart uploads of large sources. */
export const uploadRoutes = newRouter()
  .openapi(start, async (c) => c.json(await startUpload(c.var.deps, c.req.valid("json")), 201))
  .openapi(part, async (c) => {
    const { uploadId, partNumber } = c.req.valid("param");
    const declared = c.req.header("content-length") ?? "";
    const length = /^\d{1,15}$/.test(declared) ? Number(declared) : null;
    return c.json(
      await sendPart(c.var.deps, uploadId, {
        partNumber,
        length,
        contentType: c.req.header("content-type"),
        body: c.req.raw.body,
      }),
      200,
    );
  })
  .openapi(complete, async (c) => {
    const { uploadId } = c.req.valid("param");
    const { parts } = c.req.valid("json");
    return c.json(await completeUpload(c.var.deps, uploadId, parts), 202);
  })
  .openapi(abort, async (c) => {
    await abortUpload(c.var.deps, c.req.valid("param").uploadId);
    return c.body(null, 204);
  });
