import { createRoute } from "@hono/zod-openapi";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter } from "../../../openapi/router.ts";
import { signedIn } from "../../../security/guard.ts";
import { IdParams } from "../../../validation/common.ts";
import { OwnTrackDto } from "../catalogue/schema.ts";
import { retryConversion } from "./service.ts";

const retry = createRoute({
  method: "post",
  path: "/{id}/retry",
  operationId: "retryTrackConversion",
  tags: ["Tracks"],
  ...signedIn("artist"),
  summary: "Convert a failed track again",
  description:
    "Owner only. Queues the conversion of a FAILED track again from its uploaded file, which is kept for 7 days after the failure (then removed, and `processingError` says so): the track is PROCESSING again with a clean record (`processingError` null, `processingAttempts` 0, 5 attempts as for an upload) and the answer is 202 with it. 409 for a track in any other state, or whose uploaded file is no longer kept (upload it again), or whose file itself is at fault (`sourceUnreadable: true` on the track: not decodable as audio, no audio stream, too long): converting it again would fail the same way, so the 409 says why (`processingError`) and to upload another file, with `sourceUnreadable: true` in the problem. Another artist's track: 403; unknown: 404. If the queue is unreachable: 503 and the track stays FAILED as it was.",
  request: { params: IdParams },
  responses: {
    202: json(OwnTrackDto, "Accepted: converting again."),
    ...problemResponses(400, 401, 403, 404, 409, 503),
  },
});

/** POST /api/v1/tracks/{id}/retry: a failed track's conversion started again. */
export const conversionRoutes = newRouter().openapi(retry, async (c) =>
  c.json(await retryConversion(c.var.deps, c.req.valid("param").id), 202),
);
