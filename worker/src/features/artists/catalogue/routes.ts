import { createRoute } from "@hono/zod-openapi";
import { EDGE, edgeCached } from "../../../middleware/edge-cache.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter } from "../../../openapi/router.ts";
import { maybeSignedIn, publicRoute, signedIn } from "../../../security/guard.ts";
import { IdParams, PageQuery } from "../../../validation/common.ts";
import { AlbumSummaryDto } from "../../albums/schema.ts";
import { OwnTrackDto, ProcessingStatus, TrackDto } from "../../tracks/catalogue/schema.ts";
import { artistAlbums, artistTracks, ownTracks } from "./service.ts";

const tags = ["Artists"];

const tracksOf = createRoute({
  method: "get",
  path: "/{id}/tracks",
  operationId: "listArtistTracks",
  tags,
  summary: "An artist's tracks",
  ...edgeCached(
    publicRoute(),
    EDGE.catalogue,
    "Public. The artist's READY tracks, newest first (ties by id), paginated with `page` and `limit`; a plain array, and a page shorter than `limit` is the last. Tracks still converting or failed are not listed here, not even to the owner (they see them in `/artists/me/tracks`). Unknown artist: 404.",
  ),
  request: { params: IdParams, query: PageQuery },
  responses: {
    200: json(TrackDto.array(), "A page of the artist's tracks."),
    ...problemResponses(400, 404),
  },
});

const mine = createRoute({
  method: "get",
  path: "/me/tracks",
  operationId: "listMyTracks",
  tags,
  ...signedIn("artist"),
  summary: "The signed-in artist's own tracks, in every state",
  description:
    "Every track of the caller, converting, failed or ready (or only those in `status`), with the conversion record: `processingStatus`, `processingError` (why the last attempt failed), `processingProgress`, `processingAttempts` and its times. Newest first (ties by id), paginated with `page` and `limit`; a plain array, and a page shorter than `limit` is the last.",
  request: { query: PageQuery.extend({ status: ProcessingStatus.optional() }) },
  responses: {
    200: json(OwnTrackDto.array(), "A page of the caller's tracks."),
    ...problemResponses(400, 401, 403),
  },
});

const albumsOf = createRoute({
  method: "get",
  path: "/{id}/albums",
  operationId: "listArtistAlbums",
  tags,
  summary: "An artist's albums",
  ...edgeCached(
    maybeSignedIn(),
    EDGE.catalogue,
    "Public. The artist's public albums without their tracks, newest first by creation (ties by id), paginated with `page` and `limit`; a plain array. The artist themself, signed in, also gets their unlisted and private albums (ADR 0025; `visibility` says which), never from the edge cache. Unknown artist: 404. A cookie that is present but invalid answers 401.",
  ),
  request: { params: IdParams, query: PageQuery },
  responses: {
    200: json(AlbumSummaryDto.array(), "A page of the artist's albums."),
    ...problemResponses(400, 401, 404),
  },
});

/** An artist's tracks and albums; mounted under /api/v1/artists. */
export const artistCatalogueRoutes = newRouter()
  // Before `/{id}/tracks`, which would take "me" for an id.
  .openapi(mine, async (c) => c.json(await ownTracks(c.var.deps, c.req.valid("query")), 200))
  .openapi(tracksOf, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await artistTracks(c.var.deps, id, c.req.valid("query")), 200);
  })
  .openapi(albumsOf, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await artistAlbums(c.var.deps, id, c.req.valid("query")), 200);
  });
