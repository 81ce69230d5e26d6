import { createRoute } from "@hono/zod-openapi";
import { problemResponses } from "../../openapi/problem-responses.ts";
import { json, newRouter } from "../../openapi/router.ts";
import { signedIn } from "../../security/guard.ts";
import { FEED_MAX_LIMIT, FeedDto, FeedQuery } from "./schema.ts";
import { getFeed } from "./service.ts";

const feed = createRoute({
  method: "get",
  path: "/me/feed",
  operationId: "getMyFeed",
  tags: ["Artists"],
  ...signedIn("user"),
  summary: "New releases of the artists the caller follows",
  description: `The followed artists' releases, newest first (ties by id): singles (READY public tracks on no album) and public albums holding at least one READY public track, as \`FeedItem\`s. Paged by cursor: \`limit\` 1–${FEED_MAX_LIMIT} (default 20), then \`cursor\` = the answer's \`nextCursor\` (null on the last page); a cursor this feed did not make is 400. Releases that come out while paging sort before the cursor and are not repeated. With \`since\` (an ISO timestamp, the listener's last visit) the answer counts the releases after it in \`newSince\`. Unfollowing an artist takes their releases out at once, as does making a release unlisted or private (ADR 0025).`,
  request: { query: FeedQuery },
  responses: {
    200: json(FeedDto, "One page of the feed."),
    ...problemResponses(400, 401, 403),
  },
});

/** /users/me/feed: what the followed artists released. */
export const feedRoutes = newRouter().openapi(feed, async (c) =>
  c.json(await getFeed(c.var.deps, c.req.valid("query")), 200),
);
