import { createRoute } from "@hono/zod-openapi";
import { problemResponses } from "../../openapi/problem-responses.ts";
import { json, newRouter } from "../../openapi/router.ts";
import { signedIn } from "../../security/guard.ts";
import { PageQuery } from "../../validation/common.ts";
import { userListener } from "../plays/listener-key.ts";
import { countryOf } from "../plays/message.ts";
import { recordPlay } from "../plays/record.ts";
import { DeletedDto, HistoryPageDto, ListenDto, TrackIdParams } from "./schema.ts";
import { clearHistory, listHistory, recordListen, removeTrack } from "./service.ts";

const tags = ["Listening history"];

export const recordListenRoute = createRoute({
  tags,
  ...signedIn("user"),
  method: "post",
  path: "/tracks/{trackId}",
  operationId: "recordListen",
  summary: "Record a listen",
  description:
    "Records that the caller listened to the track now (the server's clock; no body). Call it at the start or end of playback: every call is one more entry. Only READY public tracks are recorded: an unknown track, one still PROCESSING or FAILED, or an unlisted or private one (ADR 0025; its id alone must not confirm that it exists) is a 404. The id is a UUIDv7, so ids sort by time.",
  request: { params: TrackIdParams },
  responses: {
    201: json(
      ListenDto,
      "The listen was recorded, and reported as a play (counted within seconds, once per track in 10 minutes: ADR 0028).",
    ),
    ...problemResponses(400, 401, 403, 404),
  },
});

export const listHistoryRoute = createRoute({
  tags,
  ...signedIn("user"),
  method: "get",
  path: "/",
  operationId: "listHistory",
  summary: "The caller's listening history",
  description:
    "A plain array (no envelope), newest first, with each track once at its most recent listen; the entry's `id` and `listenedAt` are those of that listen. Ties of `listenedAt` are broken by `id` (descending), so paging with `page`/`limit` neither repeats nor skips entries while the history is unchanged. Pages past the end are an empty array. `page` ≥ 1 (default 1), `limit` 1–100 (default 20); anything else is a 400.",
  request: { query: PageQuery },
  responses: {
    200: json(HistoryPageDto, "One page of the history."),
    ...problemResponses(400, 401, 403),
  },
});

export const clearHistoryRoute = createRoute({
  tags,
  ...signedIn("user"),
  method: "delete",
  path: "/",
  operationId: "clearHistory",
  summary: "Clear the caller's history",
  description:
    "Removes every entry of the caller's history (other users' are untouched). Idempotent: an empty history also answers 204.",
  responses: {
    204: { description: "The history is empty now." },
    ...problemResponses(401, 403),
  },
});

export const removeTrackRoute = createRoute({
  tags,
  ...signedIn("user"),
  method: "delete",
  path: "/tracks/{trackId}",
  operationId: "removeTrackFromHistory",
  summary: "Remove one track from the caller's history",
  description:
    "Removes every listen of the track from the caller's history and answers 200 with the number removed. Idempotent: a track with no entries (or no such track) answers 200 with `deleted: 0`, not 404.",
  request: { params: TrackIdParams },
  responses: {
    200: json(DeletedDto, "The track's entries are gone."),
    ...problemResponses(400, 401, 403),
  },
});

/** /api/v1/history: the signed-in user's listening history. */
export const historyRoutes = newRouter()
  .openapi(recordListenRoute, async (c) => {
    const { trackId } = c.req.valid("param");
    const listen = await recordListen(c.var.deps, trackId);
    // The listen is a play: the queue takes it after the response (ADR 0028).
    const listener = userListener(c.var.deps.principal.id);
    recordPlay(c.var.deps, {
      trackId,
      listener,
      country: countryOf(c.req.raw),
      at: c.var.deps.now,
    });
    return c.json(listen, 201);
  })
  .openapi(listHistoryRoute, async (c) => {
    const entries = await listHistory(c.var.deps, c.req.valid("query"));
    return c.json(entries, 200);
  })
  .openapi(clearHistoryRoute, async (c) => {
    await clearHistory(c.var.deps);
    return c.body(null, 204);
  })
  .openapi(removeTrackRoute, async (c) => {
    const deleted = await removeTrack(c.var.deps, c.req.valid("param").trackId);
    return c.json({ deleted }, 200);
  });
