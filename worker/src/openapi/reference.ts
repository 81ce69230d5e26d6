import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env.ts";
import { publicRoute } from "../security/guard.ts";
import { openApiDocument } from "./document.ts";
import { HEADER_COMPONENTS } from "./headers.ts";
import { declareMiddlewareParts } from "./middleware-parts.ts";
import { referencePage } from "./reference-page.ts";

const tags = ["Reference"];

const documentRoute = (prefix: string) =>
  createRoute({
    method: "get",
    path: `${prefix}/openapi.json`,
    operationId: "getOpenApiDocument",
    tags,
    ...publicRoute(),
    summary: "This document",
    description: "The OpenAPI 3.1 document of the API, as JSON.",
    responses: {
      200: {
        description: "The document.",
        content: { "application/json": { schema: z.record(z.string(), z.unknown()) } },
      },
    },
  });

const pageRoute = (prefix: string) =>
  createRoute({
    method: "get",
    path: `${prefix}/docs`,
    operationId: "getApiReference",
    tags,
    ...publicRoute(),
    summary: "Interactive API reference",
    description:
      "An HTML page that renders this document (Scalar, the pinned @scalar/api-reference served from this origin's static assets). Its Content-Security-Policy allows scripts and styles from this origin and the page's own nonce only, and requests to this origin only: nothing is loaded from anywhere else.",
    responses: {
      200: {
        description: "The page.",
        content: { "text/html": { schema: z.string() } },
      },
    },
  });

/** The app's document as clients get it (see `serveReference`). */
export const openApiDocumentOf = (app: OpenAPIHono<AppEnv>) =>
  app.getOpenAPI31Document(openApiDocument);

/**
 * The document's shared components, and the two routes that serve it, documented like any other:
 * `<prefix>/openapi.json` and the reference page `<prefix>/docs`.
 */
export function serveReference(app: OpenAPIHono<AppEnv>, prefix: string) {
  app.openAPIRegistry.registerComponent("securitySchemes", "accessCookie", {
    type: "apiKey",
    in: "cookie",
    name: "access_token",
    description: "The session's access token, set by register, login and refresh.",
  });
  for (const [name, header] of Object.entries(HEADER_COMPONENTS)) {
    app.openAPIRegistry.registerComponent("headers", name, header);
  }
  // The generator itself adds the middleware's parts to the routes' own, so that every reader of
  // the document (the route below, the lint script, tests that build it) gets the same one.
  const generate = app.getOpenAPI31Document;
  app.getOpenAPI31Document = (config, generator) =>
    declareMiddlewareParts(generate(config, generator));
  const document = documentRoute(prefix);
  const page = pageRoute(prefix);
  app.openAPIRegistry.registerPath(document);
  app.openAPIRegistry.registerPath(page);
  app.get(document.path, (c) => c.json(openApiDocumentOf(app)));
  app.get(page.path, () => referencePage(document.path, "Edge Music API reference"));
}
