import { createRoute } from "@hono/zod-openapi";
import { problemResponses } from "../../../openapi/problem-responses.ts";
import { json, newRouter } from "../../../openapi/router.ts";
import { signedIn } from "../../../security/guard.ts";
import { STATS_MAX_DAYS, StatsDto, StatsQuery } from "./schema.ts";
import { artistStats } from "./service.ts";

const stats = createRoute({
  method: "get",
  path: "/me/stats",
  operationId: "getMyStats",
  tags: ["Artists"],
  ...signedIn("artist"),
  summary: "The signed-in artist's statistics",
  description: `Per UTC day from \`from\` to \`to\` (default: the last 30 days; at most ${STATS_MAX_DAYS} days; \`from\` after \`to\` is a 400): plays, distinct listeners, likes and new followers; the most played tracks of the range and the plays by country. With \`trackId\`, one of the caller's tracks only (followers stay the artist's). Plays are counted by a queue within seconds of being reported (ADR 0028); a listener (or a network, for listeners who are not signed in) counts once per track in 10 minutes.`,
  request: { query: StatsQuery },
  responses: {
    200: json(StatsDto, "The statistics of the range."),
    ...problemResponses(400, 401, 403, 404),
  },
});

/** /artists/me/stats. */
export const artistStatsRoutes = newRouter().openapi(stats, async (c) =>
  c.json(await artistStats(c.var.deps, c.req.valid("query")), 200),
);
