import { createRoute, z } from "@hono/zod-openapi";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter } from "../../../openapi/router.ts";
import { signedIn } from "../../../security/guard.ts";
import { IdParams, PageQuery } from "../../../validation/common.ts";
import { FollowingPageDto, FollowStateDto, LikedArtistDto, LikeStateDto } from "./schema.ts";
import {
  followArtist,
  likeArtist,
  listFollowing,
  listLikedArtists,
  unfollowArtist,
  unlikeArtist,
} from "./service.ts";

const tags = ["Artists"];
const IDEMPOTENT =
  "Idempotent: repeating it changes nothing and answers the same. An unknown artist is a 404.";

export const followingRoute = createRoute({
  tags,
  ...signedIn("user"),
  method: "get",
  path: "/me/following",
  operationId: "listFollowedArtists",
  summary: "Artists the caller follows",
  description:
    "A plain array (no envelope), most recent follow first; ties are broken by artist id (descending), so pages neither repeat nor skip while the list is unchanged. Pages past the end are an empty array. `page` ≥ 1 (default 1), `limit` 1–100 (default 20); anything else is a 400. Items never carry email or password.",
  request: { query: PageQuery },
  responses: {
    200: json(FollowingPageDto, "One page of followed artists."),
    ...problemResponses(400, 401, 403),
  },
});

export const likedRoute = createRoute({
  tags,
  ...signedIn("user"),
  method: "get",
  path: "/me/liked",
  operationId: "listLikedArtists",
  summary: "Artists the caller likes",
  description:
    "A plain array (no envelope), most recent like first; ties are broken by artist id (descending). Pages past the end are an empty array. `page` ≥ 1 (default 1), `limit` 1–100 (default 20); anything else is a 400. Each item carries `likedAt` and the artist's `_count.likes`; never email or password.",
  request: { query: PageQuery },
  responses: {
    200: json(z.array(LikedArtistDto), "One page of liked artists."),
    ...problemResponses(400, 401, 403),
  },
});

export const followRoute = createRoute({
  tags,
  ...signedIn("user"),
  method: "post",
  path: "/{id}/follow",
  operationId: "followArtist",
  summary: "Follow an artist",
  description: `Answers 200 with the artist and its follower count after the change. ${IDEMPOTENT}`,
  request: { params: IdParams },
  responses: {
    200: json(FollowStateDto, "The caller follows the artist."),
    ...problemResponses(400, 401, 403, 404),
  },
});

export const unfollowRoute = createRoute({
  tags,
  ...signedIn("user"),
  method: "delete",
  path: "/{id}/follow",
  operationId: "unfollowArtist",
  summary: "Unfollow an artist",
  description: `Answers 200 with the artist and its follower count after the change (not 204: the spec returns the profile). Unfollowing an artist one does not follow is a 200 too. ${IDEMPOTENT}`,
  request: { params: IdParams },
  responses: {
    200: json(FollowStateDto, "The caller does not follow the artist."),
    ...problemResponses(400, 401, 403, 404),
  },
});

export const likeRoute = createRoute({
  tags,
  ...signedIn("user"),
  method: "post",
  path: "/{id}/like",
  operationId: "likeArtist",
  summary: "Like an artist",
  description: `Liking is independent of following. Answers 200 with \`{liked, _count: {likes}}\`: whether the caller likes the artist and its like count after the change. ${IDEMPOTENT}`,
  request: { params: IdParams },
  responses: {
    200: json(LikeStateDto, "The caller likes the artist."),
    ...problemResponses(400, 401, 403, 404),
  },
});

export const unlikeRoute = createRoute({
  tags,
  ...signedIn("user"),
  method: "delete",
  path: "/{id}/like",
  operationId: "unlikeArtist",
  summary: "Remove a like of an artist",
  description: `Answers 200 with \`{liked: false, _count: {likes}}\`, the like count after the change; removing a like that does not exist is a 200 too. ${IDEMPOTENT}`,
  request: { params: IdParams },
  responses: {
    200: json(LikeStateDto, "The caller does not like the artist."),
    ...problemResponses(400, 401, 403, 404),
  },
});

/** Following and liking artists (users); mounted under /api/v1/artists. */
export const artistSocialRoutes = newRouter()
  .openapi(followingRoute, async (c) => {
    const artists = await listFollowing(c.var.deps, c.req.valid("query"));
    return c.json(artists, 200);
  })
  .openapi(likedRoute, async (c) => {
    const artists = await listLikedArtists(c.var.deps, c.req.valid("query"));
    return c.json(artists, 200);
  })
  .openapi(followRoute, async (c) => {
    return c.json(await followArtist(c.var.deps, c.req.valid("param").id), 200);
  })
  .openapi(unfollowRoute, async (c) => {
    return c.json(await unfollowArtist(c.var.deps, c.req.valid("param").id), 200);
  })
  .openapi(likeRoute, async (c) => {
    return c.json(await likeArtist(c.var.deps, c.req.valid("param").id), 200);
  })
  .openapi(unlikeRoute, async (c) => {
    return c.json(await unlikeArtist(c.var.deps, c.req.valid("param").id), 200);
  });
