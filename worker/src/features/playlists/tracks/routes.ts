import { createRoute } from "@hono/zod-openapi";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, jsonBody, newRouter } from "../../../openapi/router.ts";
import { signedIn } from "../../../security/guard.ts";
import { IdParams } from "../../../validation/common.ts";
import {
  AddTracksBody,
  PLAYLIST_TRACKS_MAX,
  PlaylistDto,
  TRACK_IDS_MAX,
  TrackParams,
} from "../schema.ts";
import { addTracks, removeTrack } from "./service.ts";

const tags = ["Playlists"];
const OWNER = "Only the owner may do this: another user gets 403, also for a private playlist.";

const add = createRoute({
  method: "post",
  path: "/{id}/tracks",
  operationId: "addPlaylistTracks",
  tags,
  ...signedIn("user"),
  summary: "Add tracks",
  description: `\`trackIds\`: 1–${TRACK_IDS_MAX} track ids; repeated ids count once (first occurrence). The tracks are appended in the given order after the current last track; tracks already in the playlist are skipped (they keep their place). All or nothing: if any id names no track, or a track that is not READY, the answer is 404 with those ids in \`missingTrackIds\` and nothing is added. A playlist holds at most ${PLAYLIST_TRACKS_MAX} tracks (409 beyond). Adding anything updates \`updatedAt\`. Answers the playlist with its full track list. ${OWNER}`,
  request: { params: IdParams, ...jsonBody(AddTracksBody) },
  responses: {
    200: json(PlaylistDto, "The playlist with its tracks."),
    ...problemResponses(400, 401, 403, 404, 409, 413, 415),
  },
});

const remove = createRoute({
  method: "delete",
  path: "/{id}/tracks/{trackId}",
  operationId: "removePlaylistTrack",
  tags,
  ...signedIn("user"),
  summary: "Remove a track",
  description: `Removes the track from the playlist; the others keep their order. A track that is not in the playlist is 404. Updates \`updatedAt\`. Answers 200 with the playlist and its full track list (as adding does). ${OWNER}`,
  request: { params: TrackParams },
  responses: {
    200: json(PlaylistDto, "The playlist with its remaining tracks."),
    ...problemResponses(400, 401, 403, 404),
  },
});

export const trackRoutes = newRouter()
  .openapi(add, async (c) => {
    const { id } = c.req.valid("param");
    const playlist = await addTracks(c.var.deps, id, c.req.valid("json").trackIds);
    return c.json(playlist, 200);
  })
  .openapi(remove, async (c) => {
    const { id, trackId } = c.req.valid("param");
    return c.json(await removeTrack(c.var.deps, id, trackId), 200);
  });
