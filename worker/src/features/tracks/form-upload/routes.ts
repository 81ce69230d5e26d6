import { createRoute } from "@hono/zod-openapi";
import { ACCEPTED_AUDIO_LIST, NOT_AUDIO } from "../../../file-input/audio.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter } from "../../../openapi/router.ts";
import { signedIn } from "../../../security/guard.ts";
import { OwnTrackDto } from "../catalogue/schema.ts";
import { uploadTrack } from "./service.ts";

const upload = createRoute({
  method: "post",
  path: "/",
  operationId: "uploadTrack",
  tags: ["Tracks"],
  ...signedIn("artist"),
  summary: "Upload a track",
  description: [
    `multipart/form-data: \`file\` (required; ${ACCEPTED_AUDIO_LIST}, recognised by its bytes — else 415, whose detail says what was found: "${NOT_AUDIO}: it looks like a PNG image. …"; an empty file: 400 \`empty_file\`; at most MAX_UPLOAD_BYTES, 100 MB by default — else 413), \`title\` (required, 1–200 characters), \`albumId\` (optional, one of your albums — else 404), \`visibility\` (optional: \`public\`, the default, \`unlisted\` or \`private\`, else 400; ADR 0025: an artist may upload before anyone can find the track) and \`cover\` (optional image, PNG/JPEG/WebP ≤ 5 MB).`,
    "The file is streamed into object storage as it arrives. The track is created PROCESSING and a conversion job `convert-audio-<trackId>-<fileName>` is queued (5 attempts, exponential backoff from 5 s); the answer is 202 with the track. Follow it live with GET /tracks/{id}/events (Server-Sent Events), or read `processingStatus` and `processingProgress` from GET /tracks/{id}.",
    "Conversion makes Opus files and an AAC HLS ladder at 128, 192 and 320 kbps, only the rates not above the source's own bitrate (PCM and lossless: sample rate × bits × channels; compressed: the stream's bitrate, else the container's). A source below 128 kbps gets one variant at the highest of 96, 64, 48 or 32 kbps not above it (32 for anything lower), named by that bitrate in the HLS master and the Opus file. Multichannel sources are downmixed to stereo (ITU coefficients). Input that can never be converted (not decodable, no audio stream, longer than 30 minutes) fails at once: FAILED with a readable reason; only passing faults (storage, database, a stopped converter) are retried.",
    "Without `cover`, the track takes the cover art embedded in the file (ID3 APIC, FLAC/Vorbis picture, MP4 `covr`) when its conversion is READY: re-encoded as a JPEG of at most 1200 × 1200 under a new `/static/covers/…` path. A file without usable art keeps `cover` null, and a cover set before the conversion ends is kept.",
    "If the queue is unreachable the upload answers 503 and nothing is kept (the track and its stored files are removed): send it again.",
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
              visibility: { type: "string", enum: ["public", "unlisted", "private"] },
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

/** POST /api/v1/tracks: the form upload; mounted next to the catalogue's track routes. */
export const formUploadRoutes = newRouter().openapi(upload, async (c) =>
  c.json(await uploadTrack(c.var.deps, c.req.raw), 202),
);
