import { pageSecurityHeaders } from "@edge-music/contracts/page-headers";
import { Hono, type MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../../app-env.ts";
import { type EdgePolicy, edgeCached } from "../../middleware/edge-cache.ts";
import { publicRoute } from "../../security/guard.ts";
import { type Origins, rewriteHead } from "./head.ts";
import {
  findPreview,
  isEmbedKind,
  PREVIEW_KINDS,
  type Preview,
  type PreviewKind,
} from "./service.ts";

/**
 * The player's pages of an item (/tracks/{id}, /albums/{id}, /playlists/{id}, /artists/{id})
 * answered by the Worker with their link preview in the head, and the embeddable player
 * (/embed/{kind}/{id}) with the one policy that lets any site frame it (ADR 0027). Both are the
 * static assets' pages (wrangler.toml `[assets]`, the ASSETS binding): the player boots from them
 * as from any other path.
 */

/** The paths answered here; wrangler.toml's `run_worker_first` names the same. */
export const PAGE_PREFIXES = [...PREVIEW_KINDS.map((kind) => `/${kind}/`), "/embed/"];
export const isPagePath = (path: string) => PAGE_PREFIXES.some((p) => path.startsWith(p));

/**
 * A preview is the same for everyone (public items only), so it is kept at the edge for every
 * caller, signed in or not, with the bound of the catalogue's public reads (ADR 0012).
 */
const PREVIEW_POLICY: EdgePolicy = { fresh: 15, stale: 45, sameForEveryone: true };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The static page at `path` (the player's index: "/"; the embed's: "/embed"). */
async function staticPage(c: { env: AppEnv["Bindings"]; req: { url: string } }, path: string) {
  const assets = c.env.ASSETS;
  if (!assets) throw new Error("the ASSETS binding is missing (wrangler.toml [assets])");
  return await assets.fetch(new URL(path, c.req.url));
}

/** The page's own headers: the asset's type and the security headers of `_headers`. */
function asPage(response: Response, kind: "page" | "embed", status = response.status) {
  const headers = new Headers({ "content-type": "text/html; charset=utf-8" });
  for (const [name, value] of Object.entries(pageSecurityHeaders(kind))) headers.set(name, value);
  return new Response(response.body, { status, headers });
}

const origins = (env: AppEnv["Variables"]["env"]): Origins => ({
  frontend: env.FRONTEND_URL,
  api: env.PUBLIC_BASE_URL,
});

/**
 * The page of an item: the lookup below answers the preview as JSON (edge-cached by the page's
 * URL), and this writes it into the current build's index, fetched from the assets on every
 * request (no database, same data centre), so a kept preview never names the scripts of an older
 * deploy. Should the lookup fail, the page is still the player's, without a preview, kept nowhere.
 */
const composePage: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const lookup = c.res;
  let preview: Preview | null = null;
  let cacheControl = lookup.headers.get("cache-control");
  if (lookup.ok) {
    preview = ((await lookup.json()) as { preview: Preview | null }).preview;
  } else {
    c.var.log.warn("a page's preview could not be read", { status: lookup.status });
    await lookup.body?.cancel();
    cacheControl = "no-store";
  }
  const page = asPage(rewriteHead(await staticPage(c, "/"), preview, origins(c.var.env)), "page");
  if (cacheControl) page.headers.set("cache-control", cacheControl);
  for (const name of ["x-edge-cache", "age"]) {
    const value = lookup.headers.get(name);
    if (value) page.headers.set(name, value);
  }
  // Not `c.res = page`: Hono would merge the lookup's headers (its JSON type) into the page.
  c.res = undefined;
  c.res = page;
};

const [edgeCache] = edgeCached(publicRoute(), PREVIEW_POLICY, "").middleware;

/** The player's page of a path that names no item (or not by its id): its index as it is. */
async function plainPage(c: Parameters<MiddlewareHandler<AppEnv>>[0]) {
  return asPage(rewriteHead(await staticPage(c, "/"), null, origins(c.var.env)), "page");
}

export const pageRoutes = new Hono<AppEnv>();

for (const kind of PREVIEW_KINDS) {
  pageRoutes.get(
    `/${kind}/:id`,
    async (c, next) => {
      if (!UUID.test(c.req.param("id"))) return plainPage(c);
      await next();
    },
    composePage,
    edgeCache,
    async (c) => {
      const preview = await findPreview(c.var.deps, kind as PreviewKind, c.req.param("id"));
      return c.json({ preview });
    },
  );
  pageRoutes.get(`/${kind}/*`, (c) => plainPage(c));
}

/**
 * The embeddable player: a static page (no database), which reads the public API itself. Any
 * site may frame it; it sets and reads no cookie.
 */
pageRoutes.get("/embed/*", async (c) => {
  const [, , kind = "", id = "", ...rest] = c.req.path.split("/");
  const known = isEmbedKind(kind) && UUID.test(id) && rest.length === 0;
  const page = asPage(await staticPage(c, "/embed"), "embed", known ? 200 : 404);
  page.headers.set("cache-control", "public, max-age=0, must-revalidate");
  return page;
});

/**
 * Hono's secure headers for every answer, except that a page keeps its own (the static pages'
 * Referrer-Policy and CSP) and gets no X-Frame-Options: the player's pages forbid framing by
 * their CSP (`frame-ancestors 'none'`) as the static ones do, and the embed must be framed.
 */
export function secureHeadersByPath(): MiddlewareHandler<AppEnv> {
  const api = secureHeaders({ crossOriginResourcePolicy: "cross-origin" });
  const pages = secureHeaders({
    crossOriginResourcePolicy: "cross-origin",
    xFrameOptions: false,
    overwrite: false,
  });
  return (c, next) => (isPagePath(c.req.path) ? pages(c, next) : api(c, next));
}
