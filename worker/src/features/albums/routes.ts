import { createRoute } from "@hono/zod-openapi";
import { isMultipart } from "../../file-input/form.ts";
import { COVER_BODY_LIMIT, readUpdate } from "../../images/images.ts";
import { EDGE, edgeCached } from "../../middleware/edge-cache.ts";
import { ownerDeleteRoute, ownerUpdateRoute } from "../../openapi/owner-routes.ts";
import { problemResponses } from "../../openapi/problem-responses.ts";
import { json, jsonBody, newRouter } from "../../openapi/router.ts";
import { maybeSignedIn, publicRoute, signedIn } from "../../security/guard.ts";
import { IdParams } from "../../validation/common.ts";
import { ShareKeyQuery } from "../sharing/schema.ts";
import {
  AlbumCreateBody,
  AlbumDto,
  AlbumListQuery,
  AlbumSummaryDto,
  AlbumTrackOrder,
  AlbumUpdateForm,
  AlbumUpdateJson,
} from "./schema.ts";
import {
  createAlbum,
  deleteAlbum,
  getAlbum,
  listAlbums,
  reorderAlbum,
  updateAlbum,
} from "./service.ts";

const tags = ["Albums"];

const TITLE = "`title`: trimmed, 1–200 characters.";
const DATE =
  '`releasedAt`: a real calendar date as YYYY-MM-DD (years 0001–9999; "2024-02-30" answers 400), or null for none; future dates are allowed (an announced release).';

const NOTES =
  '`description`: the artist\'s words about the album, trimmed, at most 2000 characters ("" for none).';

const create = createRoute({
  method: "post",
  path: "/",
  operationId: "createAlbum",
  tags,
  ...signedIn("artist"),
  summary: "Create an album",
  description: `JSON \`{title, releasedAt?, description?}\`. ${TITLE} ${DATE} ${NOTES} The album starts without a cover and without tracks: set the cover with PUT /albums/{id} (multipart), and add tracks by setting their \`albumId\` with PUT /tracks/{id}. Answers the new album (with \`tracks: []\`).`,
  request: jsonBody(AlbumCreateBody),
  responses: {
    201: json(AlbumDto, "The new album."),
    ...problemResponses(400, 401, 403, 404, 413, 415),
  },
});

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listAlbums",
  tags,
  summary: "List albums",
  ...edgeCached(
    publicRoute(),
    EDGE.catalogue,
    "Public. Public albums only (unlisted and private ones are listed nowhere, ADR 0025). Newest first by creation (ties by id), paginated with `page` and `limit`; the answer is a plain array of albums without their tracks, and a page shorter than `limit` is the last. The optional `artistId` filter must be a UUID (else 400); an unknown artist simply matches nothing (an empty page; GET /artists/{id}/albums answers 404 instead).",
  ),
  request: { query: AlbumListQuery },
  responses: {
    200: json(AlbumSummaryDto.array().openapi("AlbumPage"), "A page of albums."),
    ...problemResponses(400),
  },
});

const byId = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getAlbum",
  tags,
  summary: "An album with its tracks",
  ...edgeCached(
    maybeSignedIn(),
    EDGE.catalogue,
    "Public. `tracks` holds the album's READY tracks (unpaginated) in album order: the artist's order (`albumPosition`, set with PUT /albums/{id}/tracks/order), else the order they were added; tracks still converting or failed are left out for everyone, the owner included. **Visibility** (ADR 0025): a public album is shown to everyone with its public tracks; an unlisted album only to its owner (signed in) and to whoever sends its share key (`?key=…`, from GET /albums/{id}/share-link), who also sees its unlisted tracks; a private album to its owner alone, who sees every track. To anyone else it answers 404, as a missing album; so does a wrong or rotated key. Answers about an album that is not public, and to requests with `key`, are never kept by a shared cache (`Cache-Control: private, no-store`). A cookie that is present but invalid answers 401.",
  ),
  request: { params: IdParams, query: ShareKeyQuery },
  responses: { 200: json(AlbumDto, "The album."), ...problemResponses(400, 401, 404) },
});

const update = ownerUpdateRoute({
  operationId: "updateAlbum",
  kind: "artist",
  tags,
  summary: "Update an own album",
  description: `Owner only. JSON \`{title?, releasedAt?, description?}\`, or multipart/form-data with the same text fields (an empty \`releasedAt\` removes the date) plus an optional \`cover\` image (PNG, JPEG or WebP recognised by its bytes, else 415; at most 5 MB, else 413). At least one field (else 400). ${TITLE} ${DATE} ${NOTES} A new cover gets a new \`/static/covers/…\` path and the replaced cover is deleted. The tracks' own covers are not touched. Another artist's album: 403.`,
  params: IdParams,
  body: { json: AlbumUpdateJson, form: AlbumUpdateForm, limit: COVER_BODY_LIMIT },
  answer: { schema: AlbumDto, description: "The updated album." },
});

const reorder = createRoute({
  method: "put",
  path: "/{id}/tracks/order",
  operationId: "reorderAlbumTracks",
  tags,
  ...signedIn("artist"),
  summary: "Reorder an own album's tracks",
  description:
    "Owner only. JSON `{trackIds}`: every track of the album (READY or not) exactly once, in the new order; they get `albumPosition` 1, 2, … (else 400 `VALIDATION_FAILED` and nothing changes). A track that joins the album later goes last. Another artist's album: 403. Answers the album with its tracks in the new order.",
  request: { params: IdParams, ...jsonBody(AlbumTrackOrder) },
  responses: {
    200: json(AlbumDto, "The album in its new order."),
    ...problemResponses(400, 401, 403, 404, 413, 415),
  },
});

const remove = ownerDeleteRoute({
  operationId: "deleteAlbum",
  kind: "artist",
  tags,
  summary: "Delete an own album",
  description:
    "Owner only. Deletes the album and its cover; its tracks are kept as singles (`albumId: null`). Another artist's album: 403.",
  params: IdParams,
});

/** /api/v1/albums */
export const albumRoutes = newRouter()
  .openapi(create, async (c) => {
    const album = await createAlbum(c.var.deps, c.req.valid("json"));
    return c.json(album, 201);
  })
  .openapi(list, async (c) => {
    const { page, limit, artistId } = c.req.valid("query");
    return c.json(await listAlbums(c.var.deps, { artistId }, { page, limit }), 200);
  })
  .openapi(byId, async (c) => {
    const album = await getAlbum(c.var.deps, c.req.valid("param").id, c.req.valid("query").key);
    c.header("vary", "Cookie");
    if (album.visibility !== "public") c.header("cache-control", "private, no-store");
    return c.json(album, 200);
  })
  .openapi(update, async (c) => {
    const form = isMultipart(c) ? c.req.valid("form") : undefined;
    const { title, releasedAt, description, visibility } = form ?? c.req.valid("json");
    const input = await readUpdate({ title, releasedAt, description, visibility }, form, ["cover"]);
    return c.json(await updateAlbum(c.var.deps, c.req.valid("param").id, input), 200);
  })
  .openapi(reorder, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await reorderAlbum(c.var.deps, id, c.req.valid("json").trackIds), 200);
  })
  .openapi(remove, async (c) => {
    await deleteAlbum(c.var.deps, c.req.valid("param").id);
    return c.body(null, 204);
  });
