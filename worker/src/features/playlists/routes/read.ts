import { createRoute, z } from "@hono/zod-openapi";
import { optionalPrincipal, requireUser } from "../../../auth/guard.ts";
import { problemResponses } from "../../../openapi/problem.ts";
import { json, newRouter, OPTIONAL_COOKIE_SECURITY, signedIn } from "../../../openapi/router.ts";
import { IdParams, PageQuery } from "../../../validation/common.ts";
import { playlistContext } from "../context.ts";
import { getPlaylist, listOwnPlaylists, listPublicPlaylists } from "../listing.ts";
import { BRIEF_TRACKS, OwnPlaylistDto, PlaylistDto, PlaylistSummaryDto } from "../schema.ts";

const tags = ["Playlists"];

const listPublic = createRoute({
  method: "get",
  path: "/",
  tags,
  summary: "Public playlists",
  description:
    "Every public playlist, newest update first (ties by id), as a plain array. Query: `page` (default 1) and `limit` (1–100, default 20). Each item carries `_count.tracks` (READY tracks) and `_count.likes`, not the track list. No sign-in needed; private playlists are never listed, not even the caller's own.",
  request: { query: PageQuery },
  responses: {
    200: json(z.array(PlaylistSummaryDto), "One page of public playlists."),
    ...problemResponses(400),
  },
});

const listOwn = createRoute({
  method: "get",
  path: "/me",
  tags,
  ...signedIn("user"),
  summary: "Own playlists",
  description: `The caller's playlists, public and private, newest update first (ties by id), as a plain array. Query: \`page\` (default 1) and \`limit\` (1–100, default 20). \`tracks\` is a brief list: the first ${BRIEF_TRACKS} READY tracks in playlist order; \`_count.tracks\` counts all READY tracks. \`updatedAt\` (the sort key) is added to the fields the spec names. Creating, updating, adding or removing tracks counts as an update; likes do not.`,
  middleware: [requireUser] as const,
  request: { query: PageQuery },
  responses: {
    200: json(z.array(OwnPlaylistDto), "One page of the caller's playlists."),
    ...problemResponses(400, 401, 403),
  },
});

const getOne = createRoute({
  method: "get",
  path: "/{id}",
  tags,
  security: OPTIONAL_COOKIE_SECURITY,
  summary: "A playlist with its tracks",
  description:
    "The playlist with its full track list in playlist order. Only READY tracks are listed and counted (for the owner too): others cannot be played. A private playlist is shown to its owner only; anyone else (signed out, another user, an artist) gets 404, as for a playlist that does not exist. Sign-in is optional: without an `access_token` cookie the caller is anonymous; a cookie that is present but invalid, expired or of an ended session is 401, so that a client refreshes rather than taking its own playlist for missing.",
  request: { params: IdParams },
  responses: {
    200: json(PlaylistDto, "The playlist."),
    ...problemResponses(400, 401, 404),
  },
});

/** Reads. `/me` is declared before `/{id}`, which would otherwise take it for a (bad) id. */
export const readRoutes = newRouter()
  .openapi(listPublic, async (c) => {
    const playlists = await listPublicPlaylists(playlistContext(c, null), c.req.valid("query"));
    return c.json(playlists, 200);
  })
  .openapi(listOwn, async (c) => {
    const ctx = playlistContext(c);
    const playlists = await listOwnPlaylists(ctx, c.get("principal").id, c.req.valid("query"));
    return c.json(playlists, 200);
  })
  .openapi(getOne, async (c) => {
    const ctx = playlistContext(c, await optionalPrincipal(c));
    return c.json(await getPlaylist(ctx, c.req.valid("param").id), 200);
  });
