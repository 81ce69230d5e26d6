import { createRoute, z } from "@hono/zod-openapi";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter } from "../../../openapi/router.ts";
import { signedIn } from "../../../security/guard.ts";
import { IdParams, PageQuery } from "../../../validation/common.ts";
import { LikedPlaylistDto, LikeStateDto } from "../schema.ts";
import { likePlaylist, listLikedPlaylists, unlikePlaylist } from "./service.ts";

const tags = ["Playlists"];
const COMMON =
  "Idempotent. Answers `{liked, _count: {likes}}`: the caller's like state and the playlist's like count after the change. Public playlists and the caller's own can be liked; any other playlist is 404, as on GET.";

const liked = createRoute({
  method: "get",
  path: "/me/liked",
  operationId: "listLikedPlaylists",
  tags,
  ...signedIn("user"),
  summary: "Playlists the caller likes",
  description:
    "A plain array, most recent like first (ties by playlist id, descending). Query: `page` (default 1) and `limit` (1–100, default 20). Each item carries `likedAt`, `_count.tracks` (READY tracks) and `_count.likes`, not the track list. Only playlists the caller may see are listed: a liked playlist that its owner has made private is left out while it is private (the like itself is kept); the caller's own playlists are listed whether public or not.",
  request: { query: PageQuery },
  responses: {
    200: json(z.array(LikedPlaylistDto), "One page of liked playlists."),
    ...problemResponses(400, 401, 403),
  },
});

const like = createRoute({
  method: "post",
  path: "/{id}/like",
  operationId: "likePlaylist",
  tags,
  ...signedIn("user"),
  summary: "Like a playlist",
  description: `${COMMON} Liking a playlist already liked changes nothing.`,
  request: { params: IdParams },
  responses: {
    200: json(LikeStateDto, "Liked."),
    ...problemResponses(400, 401, 403, 404),
  },
});

const unlike = createRoute({
  method: "delete",
  path: "/{id}/like",
  operationId: "unlikePlaylist",
  tags,
  ...signedIn("user"),
  summary: "Remove a like",
  description: `${COMMON} Removing a like that is not there changes nothing.`,
  request: { params: IdParams },
  responses: {
    200: json(LikeStateDto, "Not liked (any more)."),
    ...problemResponses(400, 401, 403, 404),
  },
});

export const likeRoutes = newRouter()
  .openapi(liked, async (c) => {
    return c.json(await listLikedPlaylists(c.var.deps, c.req.valid("query")), 200);
  })
  .openapi(like, async (c) => {
    return c.json(await likePlaylist(c.var.deps, c.req.valid("param").id), 200);
  })
  .openapi(unlike, async (c) => {
    return c.json(await unlikePlaylist(c.var.deps, c.req.valid("param").id), 200);
  });
