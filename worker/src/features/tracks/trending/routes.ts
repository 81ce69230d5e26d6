import { createRoute } from "@hono/zod-openapi";
import { EDGE, edgeCached } from "../../../middleware/edge-cache.ts";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter } from "../../../openapi/router.ts";
import { publicRoute } from "../../../security/guard.ts";
import { TRENDING_MAX, TrendingQuery, TrendingTrackDto } from "./schema.ts";
import { trendingTracksOf } from "./service.ts";

const trending = createRoute({
  method: "get",
  path: "/trending",
  operationId: "listTrendingTracks",
  tags: ["Tracks"],
  summary: "Trending tracks",
  ...edgeCached(
    publicRoute(),
    EDGE.catalogue,
    `Public, the same for everyone. READY public tracks ranked by a score of the \`window\` (\`day\`: today and yesterday, UTC; \`week\`: the last 7 days; default \`day\`): the sum over its days of (distinct listeners + 2 × likes made that day), each day weighted by 0.5^(its age in hours / half-life), the half-life 12 hours for \`day\` and 72 for \`week\`. A listener is a signed-in account or, for plays not signed in, a network, counted once per track and day: one network playing a track a thousand times moves it as much as one listener. Ties: the newer track first. Recomputed every minute from the plays' roll-ups (ADR 0028), so a play shows here within about a minute (the queue's seconds, the next recomputation) plus the edge cache's bound; a track made unlisted or private leaves at once for signed-in callers. At most \`limit\` (1–${TRENDING_MAX}, default 20).`,
  ),
  request: { query: TrendingQuery },
  responses: {
    200: json(TrendingTrackDto.array(), "The ranking, first first."),
    ...problemResponses(400),
  },
});

/** /tracks/trending. */
export const trendingRoutes = newRouter().openapi(trending, async (c) => {
  const { window, limit } = c.req.valid("query");
  return c.json(await trendingTracksOf(c.var.deps, window, limit), 200);
});
