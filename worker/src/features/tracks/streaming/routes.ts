import { BITRATES, trackKeys } from "@edge-music/contracts";
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../../app-env.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { newRouter } from "../../../openapi/router.ts";
import { uuidParam } from "../../../validation/common.ts";
import { assertStreamable, serveObject } from "./service.ts";

const tags = ["Streaming"];
const IMMUTABLE = "public, max-age=31536000, immutable";
// VOD playlists never change, but a deleted track must stop playing soon.
const PLAYLIST = "public, max-age=60";
const EDGE_TTL_SECONDS = 86_400;

const Bitrate = z.enum(BITRATES.map(String) as ["128", "192", "320"]).openapi({
  param: { name: "bitrate", in: "path" },
  example: "128",
  description: "kbps: 128, 192 or 320.",
});
const HlsFile = z
  .string()
  .regex(
    /^(index\.m3u8|init_0\.mp4|segment_\d{5}\.m4s)$/,
    "index.m3u8, init_0.mp4 or segment_<5 digits>.m4s",
  )
  .openapi({ param: { name: "file", in: "path" }, example: "segment_00000.m4s" });
const OpusFile = z
  .string()
  .regex(/^(128|192|320)k?\.opus$/, "<bitrate>.opus")
  .openapi({ param: { name: "file", in: "path" }, example: "128.opus" });
const Id = uuidParam("id");

const media = (description: string, type: string) => ({
  description,
  content: { [type]: { schema: { type: "string" as const, format: "binary" } } },
});
const COMMON = {
  304: { description: "Not modified (If-None-Match)." },
  ...problemResponses(400, 404),
};
const NOTES =
  "No sign-in needed: the catalogue is public, like its tracks. Only READY tracks stream; an unknown track answers 404 `NOT_FOUND`, an unfinished one 404 `TRACK_NOT_READY`, a bitrate that was not produced 404. CORS allows any origin (STREAM_ALLOWED_ORIGINS narrows it), exposing Content-Length, Content-Range and Accept-Ranges.";

const master = createRoute({
  method: "get",
  path: "/{id}/hls/master.m3u8",
  tags,
  summary: "HLS master playlist",
  description: `The qualities of the track (AAC, fMP4, 4-second segments), with measured BANDWIDTH and AVERAGE-BANDWIDTH. ${NOTES}`,
  request: { params: z.object({ id: Id }) },
  responses: { 200: media("The playlist.", "application/vnd.apple.mpegurl"), ...COMMON },
});

const hls = createRoute({
  method: "get",
  path: "/{id}/hls/{bitrate}/{file}",
  tags,
  summary: "HLS media playlist, init segment or media segment of one quality",
  description: `\`index.m3u8\` (the quality's playlist, cached 60 s), \`init_0.mp4\` (its initialisation segment) or \`segment_<5-digit index>.m4s\` (4 s of AAC). Segments and init segments never change: cached for a year (\`immutable\`) and at the edge; \`Range\` answers 206. ${NOTES}`,
  request: { params: z.object({ id: Id, bitrate: Bitrate, file: HlsFile }) },
  responses: {
    200: media("The file.", "audio/mp4"),
    206: media("The requested range.", "audio/mp4"),
    ...COMMON,
    ...problemResponses(416),
  },
});

const opus = createRoute({
  method: "get",
  path: "/{id}/audio/{file}",
  tags,
  summary: "Progressive Opus fallback",
  description: `\`<bitrate>.opus\` (also \`<bitrate>k.opus\`): the whole track in Ogg Opus, for clients without HLS. Supports \`Range\` (206, or 416 outside the file). ${NOTES}`,
  request: { params: z.object({ id: Id, file: OpusFile }) },
  responses: {
    200: media("The audio.", "audio/ogg"),
    206: media("The requested range.", "audio/ogg"),
    ...COMMON,
    ...problemResponses(416),
  },
});

/**
 * Immutable files come from the edge cache when it has them (the READY check ran when they were
 * cached); otherwise the track is checked, the object read, and a whole 200 stored in the cache.
 */
async function stream(c: Context<AppEnv>, trackId: string, key: string, cacheControl: string) {
  const cacheable = cacheControl === IMMUTABLE && !c.req.header("range");
  // Workers' cache of this data centre (the DOM typings of `caches` lack `default`).
  const cache = cacheable ? (caches as unknown as { default: Cache }).default : undefined;
  const cacheKey = new Request(new URL(c.req.url).toString(), { method: "GET" });
  const hit = await cache?.match(cacheKey);
  if (hit) {
    const response = new Response(hit.body, hit);
    response.headers.set("cache-control", cacheControl);
    response.headers.set("x-edge-cache", "hit");
    return response;
  }
  const { db, storage } = c.var.deps;
  await assertStreamable(db, trackId);
  const response = await serveObject(storage, {
    key,
    cacheControl,
    range: c.req.header("range"),
    ifNoneMatch: c.req.header("if-none-match"),
  });
  if (cache && response.status === 200) {
    // The edge keeps a copy for a day, not a year: a deleted track stops streaming from the
    // edge within a day (no purge reaches every data centre). Clients still cache it for good.
    const copy = response.clone();
    const edgeCopy = new Response(copy.body, copy);
    edgeCopy.headers.set("cache-control", `public, max-age=${EDGE_TTL_SECONDS}`);
    c.executionCtx.waitUntil(cache.put(cacheKey, edgeCopy));
    response.headers.set("x-edge-cache", "miss");
  }
  return response;
}

/** /api/v1/tracks/stream: HLS and progressive audio of READY tracks. */
export const streamingRoutes = newRouter()
  .openapi(master, (c) => {
    const { id } = c.req.valid("param");
    return stream(c, id, trackKeys(id).master, PLAYLIST);
  })
  .openapi(hls, (c) => {
    const { id, bitrate, file } = c.req.valid("param");
    const keys = trackKeys(id);
    const kbps = Number(bitrate);
    if (file === "index.m3u8") return stream(c, id, keys.playlist(kbps), PLAYLIST);
    if (file === "init_0.mp4") return stream(c, id, keys.init(kbps), IMMUTABLE);
    return stream(c, id, keys.segment(kbps, Number(file.slice(8, 13))), IMMUTABLE);
  })
  .openapi(opus, (c) => {
    const { id, file } = c.req.valid("param");
    return stream(c, id, trackKeys(id).opus(Number.parseInt(file, 10)), IMMUTABLE);
  });
