import { createRoute } from "@hono/zod-openapi";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, jsonBody, newRouter } from "../../../openapi/router.ts";
import { signedIn } from "../../../security/guard.ts";
import { IdParams } from "../../../validation/common.ts";
import {
  AddTracksBody,
  PLAYLIST_TRACKS_MAX,
  PlaylistDto,
  ReorderTracksBody,
  TRACK_IDS_MAX,
  TrackParams,
} from "../schema.ts";
import { addTracks, removeTrack, reorderTracks } from "./service.ts";

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

const reorder = createRoute({
  method: "put",
  path: "/{id}/tracks",
  operationId: "reorderPlaylistTracks",
  tags,
  ...signedIn("user"),
  summary: "Reorder tracks",
  description: `\`trackIds\`: the playlist's tracks in their new order, as a permutation of the ids it lists now (\`tracks\` of GET /playlists/{id}): each of them exactly once, nothing else; 1–${PLAYLIST_TRACKS_MAX} ids (an empty playlist has nothing to reorder). An id repeated in \`trackIds\` (in any case) or that is not a UUID is 400 (\`VALIDATION_FAILED\`, the repeat's index in \`errors\`). A list that is not the playlist's current set of tracks (an id not in the playlist, or one of its tracks left out, as after a concurrent add or removal) is 409 (\`CONFLICT\`) with those ids in \`extraTrackIds\` and \`omittedTrackIds\`, and nothing changes: read the playlist again and send its new list. The comparison and the change happen at once, so no track added or removed meanwhile is lost or left unordered. A new order updates \`updatedAt\`; the same order changes nothing, not even \`updatedAt\`. Answers the playlist with its full track list in the new order. ${OWNER}`,
  request: { params: IdParams, ...jsonBody(ReorderTracksBody) },
  responses: {
    200: json(PlaylistDto, "The playlist with its tracks in the new order."),
    ...problemResponses(400, 401, 403, 404, 409, 413, 415),
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
  })
  .openapi(reorder, async (c) => {
    const { id } = c.req.valid("param");
    const playlist = await reorderTracks(c.var.deps, id, c.req.valid("json").trackIds);
    return c.json(playlist, 200);
  });
