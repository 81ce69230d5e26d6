import { createRoute, z } from "@hono/zod-openapi";
import { ValidationError } from "../../errors/app-error.ts";
import { isMultipart } from "../../file-input/form.ts";
import { COVER_BODY_LIMIT } from "../../images/images.ts";
import { EDGE, edgeCached } from "../../middleware/edge-cache.ts";
import { ownerDeleteRoute, ownerUpdateRoute } from "../../openapi/owner-routes.ts";
import { problemResponses } from "../../openapi/problem-responses.ts";
import { json, jsonBody, newRouter } from "../../openapi/router.ts";
import { maybeSignedIn, publicRoute, signedIn } from "../../security/guard.ts";
import { IdParams, PageQuery } from "../../validation/common.ts";
import { ShareKeyQuery } from "../sharing/schema.ts";
import {
  BRIEF_TRACKS,
  CreatePlaylistBody,
  OwnPlaylistDto,
  PlaylistDto,
  PlaylistSummaryDto,
  PlaylistWithViewerDto,
  UpdatePlaylistForm,
  UpdatePlaylistJson,
} from "./schema.ts";
import {
  createPlaylist,
  deletePlaylist,
  getPlaylist,
  listOwnPlaylists,
  listPublicPlaylists,
  updatePlaylist,
} from "./service.ts";

const tags = ["Playlists"];

const listPublic = createRoute({
  method: "get",
  path: "/",
  operationId: "listPublicPlaylists",
  tags,
  summary: "Public playlists",
  ...edgeCached(
    publicRoute(),
    EDGE.catalogue,
    "Every public playlist, newest update first (ties by id), as a plain array. Query: `page` (default 1) and `limit` (1–100, default 20). Each item carries `_count.tracks` (READY tracks) and `_count.likes`, not the track list. No sign-in needed; private playlists are never listed, not even the caller's own.",
  ),
  request: { query: PageQuery },
  responses: {
    200: json(z.array(PlaylistSummaryDto), "One page of public playlists."),
    ...problemResponses(400),
  },
});

const listOwn = createRoute({
  method: "get",
  path: "/me",
  operationId: "listMyPlaylists",
  tags,
  ...signedIn("user"),
  summary: "Own playlists",
  description: `The caller's playlists, public and private, newest update first (ties by id), as a plain array. Query: \`page\` (default 1) and \`limit\` (1–100, default 20). \`tracks\` is a brief list: the first ${BRIEF_TRACKS} READY tracks in playlist order; \`_count.tracks\` counts all READY tracks. \`updatedAt\` (the sort key) is added to the fields the spec names. Creating, updating, adding or removing tracks counts as an update; likes do not.`,
  request: { query: PageQuery },
  responses: {
    200: json(z.array(OwnPlaylistDto), "One page of the caller's playlists."),
    ...problemResponses(400, 401, 403),
  },
});

const getOne = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getPlaylist",
  tags,
  summary: "A playlist with its tracks",
  ...edgeCached(
    maybeSignedIn(),
    EDGE.catalogue,
    "The playlist with its full track list in playlist order. Only READY tracks are listed and counted (for the owner too): others cannot be played. A private playlist is shown to its owner only; anyone else (signed out, another user, an artist) gets 404, as for a playlist that does not exist. An unlisted one (ADR 0025) is shown to its owner and to whoever sends its share key (`?key=…`, from GET /playlists/{id}/share-link); without it, or with a wrong or rotated key, it is the same 404. Tracks that are not public (unlisted or private, ADR 0025) are left out of every playlist's list and count, whoever reads it. An answer about a playlist that is not public, or to a request with `key`, is never kept by a shared cache (`Cache-Control: private, no-store`). Sign-in is optional: without an `access_token` cookie the caller is anonymous; a cookie that is present but invalid, expired or of an ended session is 401, so that a client refreshes rather than taking its own playlist for missing. A signed-in user (listener) also gets `viewer: {liked}`, whether they like the playlist, read in the same round trip; anonymous callers and artists get no `viewer`. Only anonymous answers come from or go to the edge cache, so an answer with `viewer` is never shared.",
  ),
  request: { params: IdParams, query: ShareKeyQuery },
  responses: {
    200: json(PlaylistWithViewerDto, "The playlist."),
    ...problemResponses(400, 401, 404),
  },
});

/** Reads. `/me` is declared before `/{id}`, which would otherwise take it for a (bad) id. */
export const readRoutes = newRouter()
  .openapi(listPublic, async (c) => {
    const playlists = await listPublicPlaylists(c.var.deps, c.req.valid("query"));
    return c.json(playlists, 200);
  })
  .openapi(listOwn, async (c) => {
    const ctx = c.var.deps;
    const playlists = await listOwnPlaylists(ctx, c.var.deps.principal.id, c.req.valid("query"));
    return c.json(playlists, 200);
  })
  .openapi(getOne, async (c) => {
    const ctx = c.var.deps;
    const playlist = await getPlaylist(ctx, c.req.valid("param").id, c.req.valid("query").key);
    if (playlist.visibility !== "public") c.header("cache-control", "private, no-store");
    return c.json(playlist, 200);
  });

const OWNER =
  "Only the owner may do this: another user gets 403, also for a private playlist (reads hide it behind 404, writes say 403 as the spec's error table does).";

const create = createRoute({
  method: "post",
  path: "/",
  operationId: "createPlaylist",
  tags,
  ...signedIn("user"),
  summary: "Create a playlist",
  description:
    "`title`: 1–100 characters after trimming. `description`: at most 1000 characters after trimming, default empty. `isPublic`: a JSON boolean, default false (private). `visibility` (ADR 0025): `public`, `unlisted` (listed nowhere, read with its link: GET /playlists/{id}/share-link) or `private`; `isPublic` is the spec's flag and stays true exactly when `visibility` is `public`: send either (or both, agreeing: else 400). Without either the playlist is private. Answers the new, empty playlist.",
  request: jsonBody(CreatePlaylistBody),
  responses: {
    201: json(PlaylistDto, "Created."),
    ...problemResponses(400, 401, 403, 413, 415),
  },
});

const update = ownerUpdateRoute({
  operationId: "updatePlaylist",
  kind: "user",
  tags,
  summary: "Update a playlist",
  description: `A partial update: send at least one of \`title\`, \`description\`, \`isPublic\`, \`visibility\` (same rules as on create); fields left out keep their values. \`isPublic: true\` makes the playlist public; \`isPublic: false\` makes a public one private and leaves an unlisted one unlisted; \`visibility\` sets it exactly (\`isPublic\` follows). As JSON, or as multipart/form-data with the same text fields (\`isPublic\` as the text \`true\`/\`false\`) plus an optional \`cover\` image: PNG, JPEG or WebP recognised by its bytes (else 415), at most 5 MB (else 413). A new cover gets a new path and the replaced image is deleted. There is no way to remove a cover without replacing it. Answers the playlist with its full track list. ${OWNER}`,
  params: IdParams,
  body: { json: UpdatePlaylistJson, form: UpdatePlaylistForm, limit: COVER_BODY_LIMIT },
  answer: { schema: PlaylistDto, description: "Updated." },
});

const remove = ownerDeleteRoute({
  operationId: "deletePlaylist",
  kind: "user",
  tags,
  summary: "Delete a playlist",
  description: `Deletes the playlist, its track entries, its likes and its cover image. ${OWNER}`,
  params: IdParams,
});

/** An update must change something; a body without fields (or without a body) is a 400. */
function requireSomeField(target: "json" | "form", fields: Record<string, unknown>) {
  if (Object.values(fields).some((value) => value !== undefined)) return;
  throw new ValidationError(
    [{ path: target, message: "send at least one field", code: "empty_update" }],
    "Send at least one of title, description, isPublic, visibility (or cover, in a multipart body).",
  );
}

export const writeRoutes = newRouter()
  .openapi(create, async (c) => {
    const playlist = await createPlaylist(c.var.deps, c.req.valid("json"));
    return c.json(playlist, 201);
  })
  .openapi(update, async (c) => {
    const { id } = c.req.valid("param");
    const ctx = c.var.deps;
    if (isMultipart(c)) {
      const form = c.req.valid("form");
      const { cover, ...patch } = "cover" in form ? form : { ...form, cover: undefined };
      requireSomeField("form", { ...patch, cover });
      return c.json(await updatePlaylist(ctx, id, patch, cover), 200);
    }
    const patch = c.req.valid("json");
    requireSomeField("json", patch);
    return c.json(await updatePlaylist(ctx, id, patch), 200);
  })
  .openapi(remove, async (c) => {
    await deletePlaylist(c.var.deps, c.req.valid("param").id);
    return c.body(null, 204);
  });
