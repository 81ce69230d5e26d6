import { createRoute } from "@hono/zod-openapi";
import { EDGE, edgeCached } from "../../../middleware/edge-cache.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter } from "../../../openapi/router.ts";
import { publicRoute } from "../../../security/guard.ts";
import { IdParams } from "../../../validation/common.ts";
import { RELATED_MAX, RelatedQuery, RelatedTrackDto } from "./schema.ts";
import { LISTENS_READ, relatedTracks } from "./service.ts";

const related = createRoute({
  method: "get",
  path: "/{id}/related",
  operationId: "listRelatedTracks",
  tags: ["Tracks"],
  summary: "More like this: what this track's listeners also played",
  ...edgeCached(
    publicRoute(),
    EDGE.catalogue,
    `Public, the same for everyone. The listeners of the track's latest ${LISTENS_READ.toLocaleString("en")} listens (signed-in listening history); every other READY public track they played, scored by \`coListeners\`: how many of them played it (a listener counts once, however often they played it, so one person replaying a track moves it no more than any other listener). Highest score first, then newest, then id; at most \`limit\` (1–${RELATED_MAX}, default 10). Empty while nobody who played the track played another. 404 for a track that is not READY, not public (unlisted or private: its listeners are not shown, ADR 0025) or does not exist. As fresh as the edge cache allows (about a minute).`,
  ),
  request: { params: IdParams, query: RelatedQuery },
  responses: {
    200: json(RelatedTrackDto.array(), "Related tracks."),
    ...problemResponses(400, 404),
  },
});

/** /tracks/{id}/related: co-listening. */
export const relatedRoutes = newRouter().openapi(related, async (c) =>
  c.json(await relatedTracks(c.var.deps, c.req.valid("param").id, c.req.valid("query").limit), 200),
);
