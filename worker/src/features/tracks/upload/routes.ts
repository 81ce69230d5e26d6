import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../../app-env.ts";
import { PayloadTooLargeError, UnsupportedMediaTypeError } from "../../../errors/app-error.ts";
import { IMAGE_MAX_BYTES } from "../../../file-input/images.ts";
import { boundaryOf } from "../../../file-input/multipart-stream.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter, signedIn } from "../../../openapi/router.ts";
import { requireArtist } from "../../../security/guard.ts";
import { findTrack, toOwnTrackDto } from "../catalogue/queries.ts";
import { OwnTrackDto } from "../catalogue/schema.ts";
import { readUpload } from "./read-upload.ts";
import { createUpload } from "./service.ts";

const upload = createRoute({
  method: "post",
  path: "/",
  tags: ["Tracks"],
  ...signedIn("artist"),
  middleware: [requireArtist],
  summary: "Upload a track",
  description: [
    "multipart/form-data: `file` (required; MP3, WAV, FLAC, M4A, OGG or OPUS, recognised by its bytes — else 415; at most MAX_UPLOAD_BYTES, 100 MB by default — else 413), `title` (required, 1–200 characters), `albumId` (optional, one of your albums — else 404) and `cover` (optional image, PNG/JPEG/WebP ≤ 5 MB).",
    "The file is streamed into object storage as it arrives. The track is created PROCESSING and a conversion job `convert-audio-<trackId>-<fileName>` is queued (5 attempts, exponential backoff from 5 s); the answer is 202 with the track. Poll GET /tracks/{id} for `processingStatus` and `processingProgress`.",
    "Conversion makes Opus files and an AAC HLS ladder at 128, 192 and 320 kbps, only the rates that do not exceed the source's; a source below 128 kbps still gets the 128 rung, so every track can be played. Input that can never be converted (not decodable, no audio stream, longer than 30 minutes) fails at once: FAILED with the reason.",
    "If the queue is unreachable the upload answers 503 and nothing is kept.",
  ].join("\n\n"),
  request: {
    body: {
      required: true,
      content: {
        "multipart/form-data": {
          // A plain schema, not zod: validating it would read the whole body before the route.
          schema: {
            type: "object",
            required: ["file", "title"],
            properties: {
              file: { type: "string", format: "binary" },
              title: { type: "string", minLength: 1, maxLength: 200 },
              albumId: { type: "string", format: "uuid" },
              cover: { type: "string", format: "binary" },
            },
          },
        },
      },
    },
  },
  responses: {
    202: json(OwnTrackDto, "Accepted: converting."),
    ...problemResponses(400, 401, 403, 404, 413, 415, 503),
  },
});

async function handleUpload(c: Context<AppEnv>) {
  const env = c.get("env");
  const contentType = c.req.header("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw new UnsupportedMediaTypeError("Send the upload as multipart/form-data.");
  }
  const declared = Number(c.req.header("content-length") ?? 0);
  if (declared > env.MAX_UPLOAD_BYTES + IMAGE_MAX_BYTES + 64 * 1024) {
    throw new PayloadTooLargeError(env.MAX_UPLOAD_BYTES);
  }
  const services = c.get("services");
  const trackId = crypto.randomUUID();
  const uploaded: string[] = [];
  try {
    const form = await readUpload(c.req.raw.body ?? new ReadableStream(), boundaryOf(contentType), {
      trackId,
      storage: services.storage,
      maxBytes: env.MAX_UPLOAD_BYTES,
      uploaded,
    });
    const track = await createUpload(
      { db: services.db(), redis: services.redis, storage: services.storage, log: c.get("log") },
      { trackId, artistId: c.get("principal").id, ...form },
    );
    const row = await findTrack(services.db(), track.id);
    if (!row) throw new Error("the uploaded track is gone");
    return c.json(toOwnTrackDto(row), 202);
  } catch (error) {
    // Nothing of a failed upload stays behind.
    if (uploaded.length > 0) await services.storage.delete(uploaded).catch(() => {});
    throw error;
  }
}

/** POST /api/v1/tracks; mounted next to the catalogue's track routes. */
export const uploadRoutes = newRouter().openapi(upload, handleUpload);
