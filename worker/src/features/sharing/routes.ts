import { createRoute } from "@hono/zod-openapi";
import { problemResponses } from "../../openapi/problem-responses.ts";
import { json, newRouter } from "../../openapi/router.ts";
import { signedIn } from "../../security/guard.ts";
import { IdParams } from "../../validation/common.ts";
import { ShareLinkDto } from "./schema.ts";
import { SHARED_ITEMS, type SharedItem, shareLink } from "./service.ts";

const capitalised = (noun: string) => noun[0]?.toUpperCase() + noun.slice(1);

const RULES =
  "Owner only: anyone else, whatever the item's visibility, gets 404 as for a missing item (the key never leaves its owner). The link works for an unlisted item (and a public one, where the key is not needed); a private item's link opens nothing until the owner makes the item unlisted or public. The answer is never cached (`Cache-Control: private, no-store`).";

/** GET and POST /{item}/{id}/share-link for one kind of item. */
function linkRoutes(item: SharedItem) {
  const { kind, noun } = SHARED_ITEMS[item];
  const Noun = capitalised(noun);
  const base = {
    path: `/${item}/{id}/share-link`,
    tags: ["Sharing"],
    ...signedIn(kind),
    request: { params: IdParams },
  };
  const read = createRoute({
    ...base,
    method: "get",
    operationId: `get${Noun}ShareLink`,
    summary: `The link of an own ${noun}`,
    description: `The ${noun}'s page URL with its share key, \`{url}\` (\`…/${item}/{id}?key=…\`): whoever holds it reads the ${noun} at GET /${item}/{id}?key=… while it is unlisted. ${RULES}`,
    responses: {
      200: json(ShareLinkDto, "The link."),
      ...problemResponses(400, 401, 403, 404),
    },
  });
  const rotate = createRoute({
    ...base,
    method: "post",
    operationId: `rotate${Noun}ShareLink`,
    summary: `A new link for an own ${noun}`,
    description: `Makes a new share key for the ${noun} and answers its new link \`{url}\`. The old link ends at once: its key answers 404 from then on${item === "tracks" ? ", and stream URLs signed under it (ADR 0026) stop working too" : ""}. ${RULES}`,
    responses: {
      200: json(ShareLinkDto, "The new link."),
      ...problemResponses(400, 401, 403, 404),
    },
  });
  return newRouter()
    .openapi(read, async (c) => {
      const link = await shareLink(c.var.deps, item, c.req.valid("param").id, false);
      c.header("cache-control", "private, no-store");
      return c.json(link, 200);
    })
    .openapi(rotate, async (c) => {
      const link = await shareLink(c.var.deps, item, c.req.valid("param").id, true);
      c.header("cache-control", "private, no-store");
      return c.json(link, 200);
    });
}

/**
 * /api/v1/{tracks,albums,playlists}/{id}/share-link: an owner's unlisted link (ADR 0025),
 * mounted once at /api/v1 for the three kinds of item.
 */
export const sharingRoutes = newRouter()
  .route("/", linkRoutes("tracks"))
  .route("/", linkRoutes("albums"))
  .route("/", linkRoutes("playlists"));
