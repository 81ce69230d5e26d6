import { trackKeys } from "@edge-music/contracts";
import { createRoute } from "@hono/zod-openapi";
import { EDGE, edgeCached } from "../../../middleware/edge-cache.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter } from "../../../openapi/router.ts";
import { maybeSignedIn } from "../../../security/guard.ts";
import { IdParams } from "../../../validation/common.ts";
import { OWNER_NOTE, SignedStreamQuery } from "../streaming/routes.ts";
import { serveTrackFile } from "../streaming/service.ts";
import { WaveformDto } from "./schema.ts";

const waveform = createRoute({
  method: "get",
  path: "/{id}/waveform",
  operationId: "getTrackWaveform",
  tags: ["Streaming"],
  summary: "Waveform of a track (peaks for drawing a seek bar)",
  ...edgeCached(
    maybeSignedIn(),
    EDGE.waveform,
    "The track's peaks, computed once by the conversion, as JSON (`Waveform`). No sign-in needed for a READY track; an unknown track answers 404 `NOT_FOUND`, an unfinished one 404 `TRACK_NOT_READY`, and a track converted before waveforms were made 404 `NOT_FOUND` (it has none). It never changes: browsers may keep it (`immutable`, a year); `ETag` and `If-None-Match` (304) as for media. A `Range` header is ignored (the whole document, 200). " +
      OWNER_NOTE,
  ),
  request: { params: IdParams, query: SignedStreamQuery },
  responses: {
    200: json(WaveformDto, "The waveform."),
    304: { description: "Not modified (If-None-Match)." },
    ...problemResponses(400, 401, 404),
  },
});

/** /api/v1/tracks/{id}/waveform: stored with the media, served like them. */
export const waveformRoutes = newRouter().openapi(waveform, (c) => {
  const { id } = c.req.valid("param");
  return serveTrackFile(
    c.var.deps,
    id,
    {
      key: trackKeys(id).waveform,
      range: undefined,
      ifNoneMatch: c.req.header("if-none-match"),
      contentType: "application/json",
      missing: "This track has no waveform: it was converted before waveforms were made.",
    },
    c.req.valid("query"),
  );
});
