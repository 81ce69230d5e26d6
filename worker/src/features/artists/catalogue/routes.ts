import { createRoute } from "@hono/zod-openapi";
import { EDGE, edgeCached } from "../../../middleware/edge-cache.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter } from "../../../openapi/router.ts";
import { IdParams, PageQuery } from "../../../validation/common.ts";
import { AlbumSummaryDto } from "../../albums/schema.ts";
import { TrackDto } from "../../tracks/catalogue/schema.ts";
import { artistAlbums, artistTracks } from "./service.ts";

const tags = ["Artists"];

const tracksOf = createRoute({
  method: "get",
  path: "/{id}/tracks",
  tags,
  summary: "An artist's tracks",
  ...edgeCached(
    EDGE.catalogue,
    "Public. The artist's READY tracks, newest first (ties by id), paginated with `page` and `limit`; a plain array, and a page shorter than `limit` is the last. Tracks still converting or failed are not listed, not even to the owner. Unknown artist: 404.",
  ),
  request: { params: IdParams, query: PageQuery },
  responses: {
    200: json(TrackDto.array(), "A page of the artist's tracks."),
    ...problemResponses(400, 404),
  },
});

const albumsOf = createRoute({
  method: "get",
  path: "/{id}/albums",
  tags,
  summary: "An artist's albums",
  ...edgeCached(
    EDGE.catalogue,
    "Public. The artist's albums without their tracks, newest first by creation (ties by id), paginated with `page` and `limit`; a plain array. Unknown artist: 404.",
  ),
  request: { params: IdParams, query: PageQuery },
  responses: {
    200: json(AlbumSummaryDto.array(), "A page of the artist's albums."),
    ...problemResponses(400, 404),
  },
});

/** An artist's tracks and albums; mounted under /api/v1/artists. */
export const artistCatalogueRoutes = newRouter()
  .openapi(tracksOf, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await artistTracks(c.var.deps, id, c.req.valid("query")), 200);
  })
  .openapi(albumsOf, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await artistAlbums(c.var.deps, id, c.req.valid("query")), 200);
  });
