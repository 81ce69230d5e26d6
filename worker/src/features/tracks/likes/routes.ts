import { createRoute } from "@hono/zod-openapi";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter } from "../../../openapi/router.ts";
import { signedIn } from "../../../security/guard.ts";
import { IdParams, PageQuery } from "../../../validation/common.ts";
import { LIKED_IDS_MAX, LikedTrackDto, LikedTrackIdsDto, TrackLikeStateDto } from "./schema.ts";
import { likedTrackIds, likeTrack, listLikedTracks, unlikeTrack } from "./service.ts";

const tags = ["Tracks"];
const COMMON =
  "A listener's like of a track (a star on a song for Subsonic apps). Idempotent. Answers `{liked, _count: {likes}}`: the caller's like state and the track's like count after the change. Only READY public tracks can be liked or unliked; any other id (converting, failed, unlisted, private, deleted, unknown) is 404.";

const liked = createRoute({
  method: "get",
  path: "/me/liked",
  operationId: "listLikedTracks",
  tags,
  ...signedIn("user"),
  summary: "Tracks the caller likes",
  description:
    "A plain array of `LikedTrack` (a `Track` with `likedAt`), most recent like first (ties by track id, descending). Query: `page` (default 1) and `limit` (1–100, default 20); pages past the end are empty. Only READY public tracks are listed: a liked track that is being converted again, or that its artist made unlisted or private (ADR 0025), is left out meanwhile (the like is kept).",
  request: { query: PageQuery },
  responses: {
    200: json(LikedTrackDto.array(), "One page of liked tracks."),
    ...problemResponses(400, 401, 403),
  },
});

const likedIds = createRoute({
  method: "get",
  path: "/me/liked/ids",
  operationId: "listLikedTrackIds",
  tags,
  ...signedIn("user"),
  summary: "Ids of the tracks the caller likes",
  description: `The ids of the READY tracks the caller likes, most recent like first, at most ${LIKED_IDS_MAX.toLocaleString("en")} (the newest): what a player needs to show a heart on every row without asking per track.`,
  responses: {
    200: json(LikedTrackIdsDto, "Liked track ids."),
    ...problemResponses(401, 403),
  },
});

const like = createRoute({
  method: "post",
  path: "/{id}/like",
  operationId: "likeTrack",
  tags,
  ...signedIn("user"),
  summary: "Like a track",
  description: `${COMMON} Liking a track already liked changes nothing.`,
  request: { params: IdParams },
  responses: {
    200: json(TrackLikeStateDto, "Liked."),
    ...problemResponses(400, 401, 403, 404),
  },
});

const unlike = createRoute({
  method: "delete",
  path: "/{id}/like",
  operationId: "unlikeTrack",
  tags,
  ...signedIn("user"),
  summary: "Remove a track like",
  description: `${COMMON} Removing a like that is not there changes nothing.`,
  request: { params: IdParams },
  responses: {
    200: json(TrackLikeStateDto, "Not liked (any more)."),
    ...problemResponses(400, 401, 403, 404),
  },
});

/** /tracks/me/liked… and /tracks/{id}/like: a listener's track likes. */
export const trackLikeRoutes = newRouter()
  .openapi(liked, async (c) => c.json(await listLikedTracks(c.var.deps, c.req.valid("query")), 200))
  .openapi(likedIds, async (c) => c.json(await likedTrackIds(c.var.deps), 200))
  .openapi(like, async (c) => c.json(await likeTrack(c.var.deps, c.req.valid("param").id), 200))
  .openapi(unlike, async (c) =>
    c.json(await unlikeTrack(c.var.deps, c.req.valid("param").id), 200),
  );
