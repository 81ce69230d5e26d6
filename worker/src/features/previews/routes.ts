import { createRoute } from "@hono/zod-openapi";
import { EDGE, edgeCached } from "../../middleware/edge-cache.ts";
import { problemResponses } from "../../openapi/problem-responses.ts";
import { json, newRouter } from "../../openapi/router.ts";
import { publicRoute } from "../../security/guard.ts";
import { oembed } from "./oembed.ts";
import { OEmbedDto, OEmbedQuery } from "./schema.ts";

const get = createRoute({
  method: "get",
  path: "/",
  operationId: "getOEmbed",
  tags: ["Sharing"],
  summary: "oEmbed of a track, album or playlist page",
  ...edgeCached(
    publicRoute(),
    EDGE.catalogue,
    "oEmbed 1.0 (oembed.com) for a page of the web player: `url` is a public track's, album's or playlist's page (or its embed page), on the player's origin or this API's. The answer is a `rich` document whose `html` is an iframe of the embeddable player (`/embed/{kind}/{id}`: framed by any site, no cookies, plays signed out), `width` × `height` at most `maxwidth` × `maxheight` (a track 480 × 152 and a list 480 × 380 by default). A URL that is not ours, names nothing embeddable (an artist's page), or an item that is missing, private, unlisted or not READY answers 404 alike. `format=xml` (any format but `json`) answers 501. Pages announce this endpoint with `<link rel=\"alternate\" type=\"application/json+oembed\">`.",
  ),
  request: { query: OEmbedQuery },
  responses: {
    200: json(OEmbedDto, "The oEmbed document."),
    ...problemResponses(400, 404, 501),
  },
});

/** /api/v1/oembed: the embeddable player of a public item, for sites that unfurl links. */
export const oembedRoutes = newRouter().openapi(get, async (c) => {
  const env = c.var.env;
  const document = await oembed(c.var.deps, c.req.valid("query"), {
    frontend: env.FRONTEND_URL,
    api: env.PUBLIC_BASE_URL,
  });
  return c.json(document, 200);
});
