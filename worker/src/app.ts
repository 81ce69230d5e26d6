import { OpenAPIHono } from "@hono/zod-openapi";
import { etag } from "hono/etag";
import type { AppEnv } from "./app-env.ts";
import { AppError, NotFoundError } from "./errors/app-error.ts";
import { onError } from "./errors/on-error.ts";
import { artistAccountRoutes, userAccountRoutes } from "./features/account/routes.ts";
import { albumRoutes } from "./features/albums/routes.ts";
import { appPasswordRoutes } from "./features/app-passwords/routes.ts";
import { artistRoutes } from "./features/artists/index.ts";
import { authRoutes, meRoutes } from "./features/auth/index.ts";
import { feedRoutes } from "./features/feed/routes.ts";
import { healthRoutes } from "./features/health/routes.ts";
import { historyRoutes } from "./features/history/routes.ts";
import { playQueueRoutes } from "./features/play-queue/routes.ts";
import { playlistRoutes } from "./features/playlists/index.ts";
import { playRoutes } from "./features/plays/routes.ts";
import { pageRoutes, secureHeadersByPath } from "./features/previews/pages.ts";
import { oembedRoutes } from "./features/previews/routes.ts";
import { searchRoutes } from "./features/search/routes.ts";
import { sharingRoutes } from "./features/sharing/routes.ts";
import { staticRoutes } from "./features/static/routes.ts";
import { subsonicRoutes } from "./features/subsonic/routes.ts";
import { uploadRoutes } from "./features/tracks/direct-upload/routes.ts";
import { trackRoutes } from "./features/tracks/index.ts";
import { jsonBodyLimit } from "./middleware/body-limit.ts";
import { edgeCacheRefetch } from "./middleware/edge-cache.ts";
import { corsForAllowedOrigins, corsForSubsonic, originCheck } from "./middleware/origin-check.ts";
import { requestContext } from "./middleware/request-context.ts";
import { serveReference } from "./openapi/reference.ts";
import { ACCOUNT_KINDS } from "./security/account-kinds.ts";
import { validationHook } from "./validation/validator.ts";

export const API_PREFIX = "/api/v1";

export function createApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use("*", requestContext);
  app.use("*", edgeCacheRefetch(app));
  // The player's item pages and the embed keep the static pages' own headers (ADR 0027).
  app.use("*", secureHeadersByPath());
  app.use(`${API_PREFIX}/*`, corsForAllowedOrigins);
  app.use(`${API_PREFIX}/*`, originCheck);
  app.use(`${API_PREFIX}/*`, jsonBodyLimit);
  // The Subsonic door: apps, not browsers, with the credential in each call (ADR 0024).
  app.use("/rest/*", corsForSubsonic);
  // Successful GETs carry an ETag (the object's for media, a digest of the body otherwise) and
  // answer a matching If-None-Match with 304 and no body. The route answers first; an event
  // stream is never digested, as its digest would wait for the end of a stream that lasts as long
  // as its listener (the tagging then runs on the answer as it is: its own `next` does nothing).
  const digestTag = etag();
  app.use(`${API_PREFIX}/*`, async (c, next) => {
    await next();
    if (!c.res.headers.get("content-type")?.startsWith("text/event-stream")) {
      await digestTag(c, async () => {});
    }
  });

  app.route(`${API_PREFIX}/health`, healthRoutes);
  app.route(`${API_PREFIX}/users/auth`, authRoutes(ACCOUNT_KINDS.user));
  app.route(`${API_PREFIX}/artists/auth`, authRoutes(ACCOUNT_KINDS.artist));
  app.route(`${API_PREFIX}/users`, meRoutes(ACCOUNT_KINDS.user, "getMyUserAccount"));
  app.route(`${API_PREFIX}/users`, userAccountRoutes);
  app.route(`${API_PREFIX}/users`, playQueueRoutes);
  app.route(`${API_PREFIX}/users`, feedRoutes);
  app.route(`${API_PREFIX}/users`, appPasswordRoutes(ACCOUNT_KINDS.user));
  app.route(`${API_PREFIX}/artists`, appPasswordRoutes(ACCOUNT_KINDS.artist));
  app.route(`${API_PREFIX}/artists`, artistAccountRoutes);
  app.route(`${API_PREFIX}/artists`, artistRoutes);
  // /{tracks,albums,playlists}/{id}/share-link, for the three kinds of item at once.
  app.route(API_PREFIX, sharingRoutes);
  app.route(`${API_PREFIX}/playlists`, playlistRoutes);
  app.route(`${API_PREFIX}/history`, historyRoutes);
  app.route(`${API_PREFIX}/plays`, playRoutes);
  app.route(`${API_PREFIX}/albums`, albumRoutes);
  app.route(`${API_PREFIX}/tracks`, trackRoutes);
  app.route(`${API_PREFIX}/search`, searchRoutes);
  app.route(`${API_PREFIX}/uploads`, uploadRoutes);
  app.route(`${API_PREFIX}/oembed`, oembedRoutes);
  app.route("/static", staticRoutes);
  app.route("/rest", subsonicRoutes);
  // The player's item pages with their link previews, and the embeddable player (ADR 0027).
  app.route("/", pageRoutes);

  serveReference(app, API_PREFIX);

  const allowedMethods = methodsByPath(app);
  app.notFound((c) => {
    const allowed = allowedMethods(c.req.path);
    if (allowed.length > 0 && !allowed.includes(c.req.method)) {
      throw new AppError(
        "METHOD_NOT_ALLOWED",
        `${c.req.path} answers ${allowed.join(", ")}, not ${c.req.method}.`,
        { headers: { allow: allowed.join(", ") } },
      );
    }
    throw new NotFoundError(`No route for ${c.req.method} ${c.req.path}.`);
  });
  app.onError(onError);
  return app;
}

export type App = ReturnType<typeof createApp>;

/**
 * The methods the router answers on a path (HEAD wherever GET), from its route table, read on
 * the first unmatched request, when every route is registered: a known path asked with another
 * method answers 405 with `Allow`, not 404.
 */
function methodsByPath(app: OpenAPIHono<AppEnv>): (path: string) => string[] {
  let table: Array<{ method: string; pattern: RegExp }> | undefined;
  return (path) => {
    table ??= app.routes
      .filter((route) => route.method !== "ALL")
      .map((route) => ({ method: route.method, pattern: routePattern(route.path) }));
    const methods = new Set(table.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods];
  };
}

/** A Hono route path as a RegExp: `:name` one segment, `:name{re}` its own pattern, `*` anything. */
function routePattern(path: string): RegExp {
  const source = path
    .split("/")
    .map((segment) => {
      if (segment === "*") return ".*";
      const param = /^:[A-Za-z0-9_]+(?:\{(.+)\})?$/.exec(segment);
      if (param) return param[1] ? `(?:${param[1]})` : "[^/]+";
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${source}$`);
}
