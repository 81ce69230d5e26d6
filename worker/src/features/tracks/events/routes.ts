import { createRoute, z } from "@hono/zod-openapi";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { newRouter } from "../../../openapi/router.ts";
import { signedIn } from "../../../security/guard.ts";
import { IdParams } from "../../../validation/common.ts";
import { EVENT_ID, LISTENER_CAPS, STATUS_EVENT, trackEvents } from "./service.ts";

const events = createRoute({
  method: "get",
  path: "/{id}/events",
  operationId: "streamTrackEvents",
  tags: ["Tracks"],
  ...signedIn("artist"),
  summary: "Follow a track's conversion live (Server-Sent Events)",
  description: [
    `Owner only. A \`text/event-stream\` of \`${STATUS_EVENT}\` events until the track is READY or FAILED, then the stream ends; a client closes its EventSource on either (a reconnection to a finished track is sent its final state and ended again). Each event's data is the whole state as JSON: \`{"processingStatus","processingProgress","processingError","processingAttempts"}\`, as GET /tracks/{id} shows them.`,
    "The first event is the current state. Events carry an `id`: a client that reconnects with `Last-Event-ID` (EventSource does so by itself) is sent only the states it missed; an id past the newest event of this stream (or any id while none has been published) answers 400, as does a malformed one. A comment line (`: heartbeat`) comes every 15 s when nothing happens, so proxies keep the connection open.",
    `Limits (each open stream holds a Redis connection): at most ${LISTENER_CAPS.perTrack} streams at once per track and ${LISTENER_CAPS.perAccount} per account over all its tracks; past either, 429 with \`Retry-After\` (the seconds until the first of those streams ends at the latest). A stream ends after 5 minutes even while the conversion goes on: EventSource reconnects by itself with \`Last-Event-ID\` and misses nothing. Every 30 s an open stream checks that the track is still there and the session still live, and ends if not (the reconnection is then answered 404 or 401).`,
    "How it is fed: the transcoder appends each state it writes to the track's row to a Redis stream; each listener waits on that stream with a blocking read, which Redis answers the moment a state is appended. The database is read once when the stream opens (the owner check, before anything touches Redis) and once per check, never polled for states. Another artist's track: 403; unknown: 404; Redis unreachable: 503.",
  ].join("\n\n"),
  request: {
    params: IdParams,
    headers: z.object({
      "last-event-id": z
        .string()
        .regex(EVENT_ID, "the id of an event of this stream")
        .optional()
        .openapi({
          description: "The id of the last event received: the stream goes on after it.",
          example: "1764116400000-0",
        }),
    }),
  },
  responses: {
    200: {
      description: "The event stream.",
      content: { "text/event-stream": { schema: { type: "string" } } },
    },
    ...problemResponses(400, 401, 403, 404, 429, 503),
  },
});

/** GET /api/v1/tracks/{id}/events: the live conversion status of an artist's own track. */
export const trackEventRoutes = newRouter().openapi(events, (c) =>
  trackEvents(c, c.req.valid("param").id, c.req.valid("header")["last-event-id"]),
);
