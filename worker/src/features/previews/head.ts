import { type EmbedKind, isEmbedKind, type Preview } from "./service.ts";

/** The site's name: the whole preview of anything that is not public. */
export const SITE_NAME = "Edge Music";

/** The site's own picture (web/public/og-image.png), for an item without one. */
export const SITE_IMAGE = { path: "/og-image.png", width: 1200, height: 630 } as const;

/** The embeddable player's size in CSS pixels, by kind: a track's row, or a list's panel. */
export const EMBED_SIZE: Record<EmbedKind, { width: number; height: number }> = {
  tracks: { width: 480, height: 152 },
  albums: { width: 480, height: 380 },
  playlists: { width: 480, height: 380 },
};

/** Where a preview's URLs point: pages at the player's origin, media and embeds at the Worker's. */
export interface Origins {
  /** FRONTEND_URL: the web player, where shared links lead. */
  frontend: string;
  /** PUBLIC_BASE_URL: this Worker (media, the embed page, the oEmbed endpoint). */
  api: string;
}

export const pageUrl = (o: Origins, kind: string, id: string) =>
  new URL(`/${kind}/${id}`, o.frontend).toString();
export const embedUrl = (o: Origins, kind: EmbedKind, id: string) =>
  new URL(`/embed/${kind}/${id}`, o.api).toString();
export const imageUrl = (o: Origins, preview: Preview) =>
  new URL(preview.image ?? SITE_IMAGE.path, o.api).toString();

const OG_TYPE = {
  tracks: "music.song",
  albums: "music.album",
  playlists: "music.playlist",
  artists: "profile",
} as const;

type Tag = ["meta" | "link", Record<string, string>];

const property = (name: string, content: string): Tag => ["meta", { property: name, content }];

/** The size of the preview's picture: its own when its header said it, the site's, or unknown. */
export const imageSizeOf = (preview: Preview) =>
  preview.image ? preview.imageSize : { width: SITE_IMAGE.width, height: SITE_IMAGE.height };
const named = (name: string, content: string): Tag => ["meta", { name, content }];

/** The tags a preview adds to the page's head (Open Graph, Twitter's card, oEmbed discovery). */
export function previewTags(preview: Preview, o: Origins): Tag[] {
  const { kind, id, title, description } = preview;
  const url = pageUrl(o, kind, id);
  const image = imageUrl(o, preview);
  const tags: Tag[] = [
    ["link", { rel: "canonical", href: url }],
    named("description", description),
    property("og:site_name", SITE_NAME),
    property("og:type", OG_TYPE[kind]),
    property("og:url", url),
    property("og:title", title),
    property("og:description", description),
    property("og:image", image),
    property("og:image:alt", `Picture of ${title}`),
  ];
  const size = imageSizeOf(preview);
  if (size) {
    tags.push(
      property("og:image:width", String(size.width)),
      property("og:image:height", String(size.height)),
    );
  }
  if (preview.audio) {
    tags.push(
      property("og:audio", new URL(preview.audio.path, o.api).toString()),
      property("og:audio:type", preview.audio.type),
    );
  }
  if (kind === "tracks" && preview.duration) {
    tags.push(property("music:duration", String(Math.round(preview.duration))));
  }
  if (preview.author.path && kind !== "artists") {
    tags.push(property("music:musician", new URL(preview.author.path, o.frontend).toString()));
  }
  if (kind === "artists") tags.push(property("profile:username", title));
  tags.push(named("twitter:title", title), named("twitter:description", description));
  tags.push(named("twitter:image", image));
  if (isEmbedKind(kind)) {
    const size = EMBED_SIZE[kind];
    tags.push(
      named("twitter:card", "player"),
      named("twitter:player", embedUrl(o, kind, id)),
      named("twitter:player:width", String(size.width)),
      named("twitter:player:height", String(size.height)),
      [
        "link",
        {
          rel: "alternate",
          type: "application/json+oembed",
          href: oembedUrl(o, url),
          title: `${title} (oEmbed)`,
        },
      ],
    );
  } else {
    tags.push(named("twitter:card", "summary"));
  }
  return tags;
}

/** The discovery link's target: GET /api/v1/oembed for this page, as JSON. */
export const oembedUrl = (o: Origins, page: string) => {
  const url = new URL("/api/v1/oembed", o.api);
  url.searchParams.set("url", page);
  url.searchParams.set("format", "json");
  return url.toString();
};

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const render = ([tag, attributes]: Tag) =>
  `<${tag} ${Object.entries(attributes)
    .map(([name, value]) => `${name}="${escapeHtml(value)}"`)
    .join(" ")} />`;

/** The page's title: the item's, then the artist's, then the site's. */
export function pageTitle(preview: Preview | null): string {
  if (!preview) return SITE_NAME;
  const by = preview.kind === "artists" || !preview.author.name ? "" : ` · ${preview.author.name}`;
  return `${preview.title}${by} · ${SITE_NAME}`;
}

/**
 * The player's index with the preview written into its head: its own title, and the index's
 * description replaced by the tags. Without a preview (missing, private, unlisted), the page
 * says the site's name and nothing more: the index's own description goes too.
 */
export function rewriteHead(index: Response, preview: Preview | null, o: Origins): Response {
  const tags = preview ? previewTags(preview, o).map(render).join("\n    ") : "";
  return new HTMLRewriter()
    .on("title", {
      element(element) {
        element.setInnerContent(pageTitle(preview));
      },
    })
    .on('meta[name="description"]', {
      element(element) {
        element.remove();
      },
    })
    .on("head", {
      element(element) {
        if (tags) element.append(`  ${tags}\n  `, { html: true });
      },
    })
    .transform(index);
}
