import { NotFoundError, NotImplementedError } from "../../errors/app-error.ts";
import type { RequestDeps } from "../../request-deps.ts";
import {
  EMBED_SIZE,
  embedUrl,
  escapeHtml,
  imageSizeOf,
  imageUrl,
  type Origins,
  SITE_NAME,
} from "./head.ts";
import type { OEmbedRequest, OEmbedView } from "./schema.ts";
import { type EmbedKind, findPreview, isEmbedKind } from "./service.ts";

/** Seconds a consumer may keep an answer: the edge's bound on a public read (ADR 0012). */
export const OEMBED_CACHE_AGE = 60;

const ITEM_PATH =
  /^\/(?:embed\/)?([a-z]+)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;

/**
 * The item a URL names, when it is ours: a page of the player (FRONTEND_URL's origin) or of this
 * Worker (PUBLIC_BASE_URL's), of a kind that has an embed. Anything else: null.
 */
export function embeddedItem(url: string, o: Origins): { kind: EmbedKind; id: string } | null {
  const parsed = new URL(url);
  const ours = [o.frontend, o.api].map((u) => new URL(u).origin);
  // http and https of our host alike: a link pasted with the other scheme is still ours.
  const host = (origin: string) => origin.replace(/^https?:/, "");
  if (!ours.map(host).includes(host(parsed.origin))) return null;
  const match = ITEM_PATH.exec(parsed.pathname);
  const [, kind = "", id = ""] = match ?? [];
  return match && isEmbedKind(kind) ? { kind, id: id.toLowerCase() } : null;
}

/**
 * GET /oembed: a `rich` oEmbed 1.0 answer for a public track, album or playlist of ours: the embed
 * page in an iframe, at most `maxwidth` × `maxheight`. One database round trip (the preview's
 * statement); a URL that is not ours, names no embeddable item, or one that is not public: 404.
 */
export async function oembed(
  ctx: Pick<RequestDeps, "db" | "storage">,
  request: OEmbedRequest,
  o: Origins,
): Promise<OEmbedView> {
  const format = request.format ?? "json";
  if (format !== "json") {
    throw new NotImplementedError(`Only the json format is answered, not ${format}.`);
  }
  const item = embeddedItem(request.url, o);
  const notFound = () => new NotFoundError("No public track, album or playlist at this URL.");
  if (!item) throw notFound();
  const preview = await findPreview(ctx, item.kind, item.id);
  if (!preview) throw notFound();
  const size = EMBED_SIZE[item.kind];
  const width = Math.min(size.width, request.maxwidth ?? size.width);
  const height = Math.min(size.height, request.maxheight ?? size.height);
  const by = preview.author.name ? ` by ${preview.author.name}` : "";
  const label = `${preview.title}${by} on ${SITE_NAME}`;
  const src = embedUrl(o, item.kind, item.id);
  const thumbnail = imageSizeOf(preview);
  const html = `<iframe src="${escapeHtml(src)}" width="${width}" height="${height}" title="${escapeHtml(label)}" style="border:0;border-radius:8px" loading="lazy" allow="autoplay; encrypted-media"></iframe>`;
  return {
    type: "rich",
    version: "1.0",
    title: preview.title,
    ...(preview.author.name ? { author_name: preview.author.name } : {}),
    ...(preview.author.path
      ? { author_url: new URL(preview.author.path, o.frontend).toString() }
      : {}),
    provider_name: SITE_NAME,
    provider_url: new URL("/", o.frontend).toString(),
    cache_age: OEMBED_CACHE_AGE,
    // oEmbed's thumbnail comes with its size, or not at all.
    ...(thumbnail
      ? {
          thumbnail_url: imageUrl(o, preview),
          thumbnail_width: thumbnail.width,
          thumbnail_height: thumbnail.height,
        }
      : {}),
    html,
    width,
    height,
  };
}
