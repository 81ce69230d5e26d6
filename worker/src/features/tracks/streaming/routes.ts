import { trackKeys, VARIANT_BITRATES } from "@edge-music/contracts";
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../../app-env.ts";
import { EDGE, edgeCached, stalenessNote } from "../../../middleware/edge-cache.ts";
import { responseHeaders } from "../../../openapi/headers.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { newRouter } from "../../../openapi/router.ts";
import { maybeSignedIn } from "../../../security/guard.ts";
import { uuidParam } from "../../../validation/common.ts";
import { serveTrackFile } from "./service.ts";

const tags = ["Streaming"];

const KBPS = VARIANT_BITRATES.map(String) as [string, ...string[]];
const Bitrate = z.enum(KBPS).openapi({
  param: { name: "bitrate", in: "path" },
  example: "128",
  description: `kbps, one of the track's variants (the master lists them): ${KBPS.join(", ")}. Rungs of 128, 192 and 320 never above the source's bitrate; a source below 128 kbps has one variant at the highest of 96, 64, 48 or 32 not above it.`,
});
const HlsFile = z
  .string()
  .regex(
    /^(index\.m3u8|init_0\.mp4|segment_\d{5}\.m4s)$/,
    "index.m3u8, init_0.mp4 or segment_<5 digits>.m4s",
  )
  .openapi({ param: { name: "file", in: "path" }, example: "segment_00000.m4s" });
const AudioFile = z
  .string()
  .regex(new RegExp(`^(${KBPS.join("|")})k?\\.(opus|m4a)$`), "<bitrate>.opus or <bitrate>.m4a")
  .openapi({ param: { name: "file", in: "path" }, example: "128.opus" });
const Id = uuidParam("id");

/** `?exp=…&sig=…`: a signed URL of a track that is not public (ADR 0026). */
export const SignedStreamQuery = z.object({
  exp: z
    .string()
    .max(16)
    .optional()
    .openapi({
      param: { name: "exp", in: "query" },
      description: "Signed URLs only: when the signature ends (Unix seconds).",
      example: "1795000000",
    }),
  sig: z
    .string()
    .max(128)
    .optional()
    .openapi({
      param: { name: "sig", in: "query" },
      description:
        "Signed URLs only: the signature of the track's files until `exp`, as GET /tracks/{id}?key=… (or the owner's read) gives it in `stream`.",
      example: "q0Vb4nX2y8mO1cJ6rT9wZ3kL5hF7dS0aE2gU4iP6oY8",
    }),
});

const binary = { schema: { type: "string" as const, format: "binary" } };
/** A file of one or more content types; every file answer says that ranges are taken. */
const media = (description: string, ...types: string[]) => ({
  description,
  headers: responseHeaders("Accept-Ranges"),
  content: Object.fromEntries(types.map((type) => [type, binary])),
});
/** A 206: the part of the file named by Content-Range. */
const part = (...types: string[]) => ({
  ...media("The requested range.", ...types),
  headers: responseHeaders("Accept-Ranges", "Content-Range"),
});
const PLAYLIST = "application/vnd.apple.mpegurl";
const COMMON = {
  304: { description: "Not modified (If-None-Match)." },
  // 503: the media store cannot be reached.
  ...problemResponses(400, 401, 404, 503),
};
const NOTES =
  "No sign-in needed: the catalogue is public, like its tracks. Only READY tracks stream (but see **Owner**); an unknown track answers 404 `NOT_FOUND`, an unfinished one 404 `TRACK_NOT_READY`, a bitrate that was not produced 404. CORS allows any origin (STREAM_ALLOWED_ORIGINS narrows it), exposing Content-Length, Content-Range and Accept-Ranges.";

/** The owner's exception, in the description of every route that serves a track's files. */
export const OWNER_NOTE =
  "**Visibility:** an unlisted or private track (ADR 0025) streams only to its owner (the access cookie) or through a signed, expiring URL (`?exp=…&sig=…`, ADR 0026) that GET /tracks/{id} gives with the track's key, in `stream`; a playlist fetched so names its files with the same signature, so an HLS player follows it unchanged. Without a valid signature (none, expired, altered, or made before the owner rotated the track's link) such a track answers 404 `NOT_FOUND`, as a missing one. A signed answer is never kept by the edge or a shared cache (`Cache-Control: private, no-store`, `x-edge-cache: bypass`), and the edge never answers an unsigned request with it. **Owner:** the artist who uploaded a track, signed in (the access cookie), gets its files in any state (PROCESSING, FAILED) as if it were READY: what the conversion has written so far, 404 `NOT_FOUND` for a file not written (yet). Such an answer is for the owner alone: `Cache-Control: private, no-store` and `x-edge-cache: bypass`, never kept by the edge or a browser. A READY track is answered alike to everyone, its owner included (the edge cache may answer before the cookie is read). Anyone else, signed in or not, gets 404 `TRACK_NOT_READY` for an unfinished track. A cookie that is present but invalid, expired or of an ended session answers 401 (refresh, then retry).";

const master = createRoute({
  method: "get",
  path: "/{id}/hls/master.m3u8",
  operationId: "streamHlsMaster",
  tags,
  summary: "HLS master playlist",
  ...edgeCached(
    maybeSignedIn(),
    EDGE.hlsPlaylist,
    `The qualities of the track (AAC, fMP4, 4-second segments), with measured BANDWIDTH and AVERAGE-BANDWIDTH. ${NOTES} ${OWNER_NOTE}`,
  ),
  request: { params: z.object({ id: Id }), query: SignedStreamQuery },
  responses: {
    200: media("The playlist.", PLAYLIST),
    206: part(PLAYLIST),
    ...COMMON,
    ...problemResponses(416),
  },
});

const hls = createRoute({
  method: "get",
  path: "/{id}/hls/{bitrate}/{file}",
  operationId: "streamHlsFile",
  tags,
  summary: "HLS media playlist, init segment or media segment of one quality",
  ...edgeCached(
    maybeSignedIn(),
    (c) => (c.req.param("file")?.endsWith(".m3u8") ? EDGE.hlsPlaylist : EDGE.media),
    `\`index.m3u8\` (the quality's playlist, cached 60 s), \`init_0.mp4\` (its initialisation segment) or \`segment_<5-digit index>.m4s\` (4 s of AAC). Segments and init segments never change: cached for a year (\`immutable\`); \`Range\` answers 206. ${NOTES} ${OWNER_NOTE} ${stalenessNote(EDGE.hlsPlaylist)} Segments: ${stalenessNote(EDGE.media)}`,
  ),
  request: {
    params: z.object({ id: Id, bitrate: Bitrate, file: HlsFile }),
    query: SignedStreamQuery,
  },
  responses: {
    200: media(
      `The file: \`index.m3u8\` as ${PLAYLIST}, the segments as audio/mp4.`,
      PLAYLIST,
      "audio/mp4",
    ),
    206: part(PLAYLIST, "audio/mp4"),
    ...COMMON,
    ...problemResponses(416),
  },
});

const opus = createRoute({
  method: "get",
  path: "/{id}/audio/{file}",
  operationId: "streamOpus",
  tags,
  summary: "Progressive audio: the whole track in one file",
  ...edgeCached(
    maybeSignedIn(),
    EDGE.progressive,
    `For clients without HLS. \`<bitrate>.opus\` (also \`<bitrate>k.opus\`): Ogg Opus. \`<bitrate>.m4a\` (also \`<bitrate>k.m4a\`): AAC in one MP4 file, its index first (the HLS rung's segments joined; a track converted before these files existed has none: 404). Supports \`Range\` (206, or 416 outside the file). ${NOTES} ${OWNER_NOTE}`,
  ),
  request: { params: z.object({ id: Id, file: AudioFile }), query: SignedStreamQuery },
  responses: {
    200: media("The audio.", "audio/ogg", "audio/mp4"),
    206: part("audio/ogg", "audio/mp4"),
    ...COMMON,
    ...problemResponses(416),
  },
});

/** Serves the object to whoever may get the track's files (the edge cache sits in front). */
function stream(c: Context<AppEnv>, trackId: string, key: string) {
  return serveTrackFile(
    c.var.deps,
    trackId,
    { key, range: c.req.header("range"), ifNoneMatch: c.req.header("if-none-match") },
    { exp: c.req.query("exp"), sig: c.req.query("sig") },
  );
}

/** /api/v1/tracks/stream: HLS and progressive audio of READY tracks. */
export const streamingRoutes = newRouter()
  .openapi(master, (c) => {
    const { id } = c.req.valid("param");
    return stream(c, id, trackKeys(id).master);
  })
  .openapi(hls, (c) => {
    const { id, bitrate, file } = c.req.valid("param");
    const keys = trackKeys(id);
    const kbps = Number(bitrate);
    if (file === "index.m3u8") return stream(c, id, keys.playlist(kbps));
    if (file === "init_0.mp4") return stream(c, id, keys.init(kbps));
    return stream(c, id, keys.segment(kbps, Number(file.slice(8, 13))));
  })
  .openapi(opus, (c) => {
    const { id, file } = c.req.valid("param");
    const kbps = Number.parseInt(file, 10);
    return stream(
      c,
      id,
      file.endsWith(".m4a") ? trackKeys(id).aac(kbps) : trackKeys(id).opus(kbps),
    );
  });
