import { createRoute } from "@hono/zod-openapi";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter } from "../../../openapi/router.ts";
import { signedIn } from "../../../security/guard.ts";
import { IdParams } from "../../../validation/common.ts";
import { LikeStateDto } from "../schema.ts";
import { likePlaylist, unlikePlaylist } from "./service.ts";

const tags = ["Playlists"];
const COMMON =
  "Idempotent. Answers `{liked, _count: {likes}}`: the caller's like state and the playlist's like count after the change. Public playlists and the caller's own can be liked; any other playlist is 404, as on GET.";

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
  .openapi(like, async (c) => {
    return c.json(await likePlaylist(c.var.deps, c.req.valid("param").id), 200);
  })
  .openapi(unlike, async (c) => {
    return c.json(await unlikePlaylist(c.var.deps, c.req.valid("param").id), 200);
  });
