import { createRoute } from "@hono/zod-openapi";
import { problemResponses } from "../../openapi/problem-responses.ts";
import { json, jsonBody, newRouter } from "../../openapi/router.ts";
import { signedIn } from "../../security/guard.ts";
import { PLAY_QUEUE_MAX, PlayQueueDto, PlayQueueInput } from "./schema.ts";
import { getPlayQueue, savePlayQueue } from "./service.ts";

const tags = ["Play queue"];

const read = createRoute({
  method: "get",
  path: "/me/play-queue",
  operationId: "getPlayQueue",
  tags,
  ...signedIn("user"),
  summary: "The caller's saved play queue",
  description:
    "What the listener was playing, saved by a player (the web player, or a Subsonic app's `savePlayQueue`), so that another device can go on from there. A listener who never saved one gets an empty queue (`changedAt: null`), not 404. Only READY public tracks are returned, in the saved order (a track its artist made unlisted or private since is left out, ADR 0025).",
  responses: {
    200: json(PlayQueueDto, "The saved queue."),
    ...problemResponses(401, 403),
  },
});

const save = createRoute({
  method: "put",
  path: "/me/play-queue",
  operationId: "savePlayQueue",
  tags,
  ...signedIn("user"),
  summary: "Save the caller's play queue",
  description: `Replaces the saved queue: \`trackIds\` in play order (at most ${PLAY_QUEUE_MAX}; an empty list clears it), \`current\` (one of them, or null; else 400), \`position\` in seconds (0–86400), \`client\` (≤ 64 characters, shown as \`changedBy\`). The ids are not checked against the catalogue when saved: a track that cannot be played is left out when the queue is read. Answers 204.`,
  request: jsonBody(PlayQueueInput),
  responses: {
    204: { description: "Saved." },
    ...problemResponses(400, 401, 403, 413, 415),
  },
});

/** /users/me/play-queue: the listener's queue, saved for another device. */
export const playQueueRoutes = newRouter()
  .openapi(read, async (c) => c.json(await getPlayQueue(c.var.deps), 200))
  .openapi(save, async (c) => {
    await savePlayQueue(c.var.deps, c.req.valid("json"));
    return c.body(null, 204);
  });
