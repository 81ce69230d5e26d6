import { createRoute, z } from "@hono/zod-openapi";
import { isMultipart } from "../../../file-input/form.ts";
import { COVER_BODY_LIMIT, readUpdate } from "../../../images/images.ts";
import { EDGE, edgeCached } from "../../../middleware/edge-cache.ts";
import { ownerDeleteRoute, ownerUpdateRoute } from "../../../openapi/owner-routes.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter } from "../../../openapi/router.ts";
import { maybeSignedIn, publicRoute } from "../../../security/guard.ts";
import { IdParams } from "../../../validation/common.ts";
import { ShareKeyQuery } from "../../sharing/schema.ts";
import {
  OwnTrackDto,
  SharedTrackDto,
  TrackDto,
  TrackListQuery,
  TrackUpdateForm,
  TrackUpdateJson,
} from "./schema.ts";
import { deleteTrack, getTrack, listTracks, updateTrack } from "./service.ts";

const tags = ["Tracks"];

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listTracks",
  tags,
  summary: "List tracks",
  ...edgeCached(
    publicRoute(),
    EDGE.catalogue,
    "READY public tracks only (a track still converting or failed, or unlisted or private, is listed nowhere, not even for its owner: the owner reads it with GET /tracks/{id} or GET /artists/me/tracks). Newest first (ties by id), paginated with `page` and `limit`; the answer is a plain array, and a page shorter than `limit` is the last. Optional filters `artistId` and `albumId` must be UUIDs (else 400); an unknown id simply matches nothing (an empty page, not 404). Public: no sign-in needed.",
  ),
  request: { query: TrackListQuery },
  responses: {
    200: json(TrackDto.array().openapi("TrackPage"), "A page of tracks."),
    ...problemResponses(400),
  },
});

const byId = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getTrack",
  tags,
  summary: "A track by id",
  ...edgeCached(
    maybeSignedIn(),
    EDGE.catalogue,
    "Public. A READY public track is shown to everyone as `Track`. A track that is PROCESSING or FAILED, or private, is shown only to its owning artist and answers 404 to anyone else. An unlisted READY track is shown to whoever sends its share key (`?key=…`, from GET /tracks/{id}/share-link) as `SharedTrack`: the public fields, `visibility` and `stream`, signed URLs of its files valid for some hours (ADR 0026); without the key, or with a wrong or rotated one, it answers 404 as a missing track. Answers about a track that is not public are never kept by a shared cache (`Cache-Control: private, no-store`), nor is any answer to a request with `key`. When the caller is signed in as the owning artist, the answer is `OwnTrack` (the public fields plus `visibility`, `processingStatus`, `processingError`, `processingAttempts`, `processingStartedAt`, `processingFinishedAt`) whatever the state. Without an access cookie the caller is anonymous; a cookie that is present but invalid or expired answers 401 (refresh, then retry). The answer varies by the cookie (`Vary: Cookie`).",
  ),
  request: { params: IdParams, query: ShareKeyQuery },
  responses: {
    200: json(z.union([OwnTrackDto, SharedTrackDto, TrackDto]), "The track."),
    ...problemResponses(400, 401, 404),
  },
});

const update = ownerUpdateRoute({
  operationId: "updateTrack",
  kind: "artist",
  tags,
  summary: "Update an own track",
  description:
    "Owner only, in any processing state. JSON `{title?, albumId?, visibility?}`, or multipart/form-data with the same text fields plus an optional `cover` image (PNG, JPEG or WebP recognised by its bytes, else 415; at most 5 MB, else 413). At least one field (else 400). `title`: trimmed, 1–200 characters. `albumId`: one of the caller's own albums, or null (in multipart: an empty value) to make the track a single; an album that does not exist or belongs to another artist answers 404 alike. A new cover gets a new `/static/covers/…` path and the replaced cover is deleted. `visibility`: `public`, `unlisted` or `private` (else 400; ADR 0025): an unlisted or private track leaves every list, search, feed, playlist and related list at once for signed-in callers and within the edge cache's bound (about a minute) for anonymous ones; its files stream only to the owner or through signed URLs (ADR 0026). Its share key is kept: making it unlisted again reopens the same link unless the owner rotated it (POST /tracks/{id}/share-link). Another artist's track: 403. Answers the updated `OwnTrack`.",
  params: IdParams,
  body: { json: TrackUpdateJson, form: TrackUpdateForm, limit: COVER_BODY_LIMIT },
  answer: { schema: OwnTrackDto, description: "The updated track." },
});

const remove = ownerDeleteRoute({
  operationId: "deleteTrack",
  kind: "artist",
  tags,
  summary: "Delete an own track",
  description:
    "Owner only, in any processing state. Deletes the track with its file records, its entries in playlists and its listens in histories, then its conversion job (a conversion already running drops its work when it finds the track gone), every object under `tracks/<id>/` in storage and its cover. Objects are deleted after the row: if storage fails, the failure is logged and the objects stay behind, unreachable (no route serves a deleted track). Another artist's track: 403.",
  params: IdParams,
});

/** The catalogue side of /api/v1/tracks: list, fetch, update, delete. */
export const trackCatalogueRoutes = newRouter()
  .openapi(list, async (c) => {
    const { page, limit, ...filter } = c.req.valid("query");
    return c.json(await listTracks(c.var.deps, filter, { page, limit }), 200);
  })
  .openapi(byId, async (c) => {
    const track = await getTrack(c.var.deps, c.req.valid("param").id, c.req.valid("query").key);
    c.header("vary", "Cookie");
    // Defence in depth: the edge cache already bypasses keyed and signed-in requests.
    if ("visibility" in track && track.visibility !== "public") {
      c.header("cache-control", "private, no-store");
    }
    return c.json(track, 200);
  })
  .openapi(update, async (c) => {
    const form = isMultipart(c) ? c.req.valid("form") : undefined;
    const { title, albumId, visibility } = form ?? c.req.valid("json");
    const input = await readUpdate({ title, albumId, visibility }, form, ["cover"]);
    return c.json(await updateTrack(c.var.deps, c.req.valid("param").id, input), 200);
  })
  .openapi(remove, async (c) => {
    await deleteTrack(c.var.deps, c.req.valid("param").id);
    return c.body(null, 204);
  });
