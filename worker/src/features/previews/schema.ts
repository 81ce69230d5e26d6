import { z } from "@hono/zod-openapi";

const Pixels = (name: string, description: string) =>
  z.coerce
    .number()
    .int("must be a whole number of pixels")
    .min(1, "at least 1")
    .max(10_000, "at most 10000")
    .optional()
    .openapi({ param: { name, in: "query" }, type: "integer", description, example: 400 });

export const OEmbedQuery = z.object({
  url: z
    .string()
    .max(2048, "at most 2048 characters")
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
      message: "must be an http(s) URL",
    })
    .openapi({
      param: { name: "url", in: "query" },
      description:
        "The page to embed: a public track, album or playlist of the web player (`…/tracks/{id}`, `…/albums/{id}`, `…/playlists/{id}`) or its embed page (`…/embed/{kind}/{id}`).",
      example: "https://music.example.com/tracks/0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192",
    }),
  format: z
    .string()
    .max(16, "at most 16 characters")
    .optional()
    .openapi({
      param: { name: "format", in: "query" },
      description:
        "`json` (the default). Any other format, `xml` included, answers 501 `NOT_IMPLEMENTED` as oEmbed 1.0 allows.",
      example: "json",
    }),
  maxwidth: Pixels(
    "maxwidth",
    "The largest width the consumer can show, in CSS pixels: `width` (and the iframe's) is at most this.",
  ),
  maxheight: Pixels(
    "maxheight",
    "The largest height the consumer can show, in CSS pixels: `height` (and the iframe's) is at most this.",
  ),
});
export type OEmbedRequest = z.infer<typeof OEmbedQuery>;

export const OEmbedDto = z
  .object({
    type: z.literal("rich"),
    version: z.literal("1.0"),
    title: z.string().openapi({ example: "Neon Rain" }),
    author_name: z.string().optional().openapi({
      example: "Night Drive",
      description:
        "The artist, or a playlist's owner by their display name (absent when they set none).",
    }),
    author_url: z.url().optional().openapi({
      description:
        "The artist's page (tracks and albums). A playlist's owner has no public page: absent.",
      example: "https://music.example.com/artists/0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192",
    }),
    provider_name: z.literal("Edge Music"),
    provider_url: z.url().openapi({ example: "https://music.example.com/" }),
    cache_age: z.number().int().openapi({
      example: 60,
      description: "Seconds the consumer may keep this answer: the edge cache's bound.",
    }),
    thumbnail_url: z.url().optional().openapi({
      description:
        "The item's picture, only where its size is known (with `thumbnail_width` and `thumbnail_height`, as oEmbed requires): its own picture with the size read from the image's header, or the site's picture for an item without one; left out when the picture's header does not say its size.",
    }),
    thumbnail_width: z.number().int().optional(),
    thumbnail_height: z.number().int().optional(),
    html: z.string().openapi({
      description:
        "An iframe of the embeddable player (`/embed/{kind}/{id}`, framed by any site, no cookies), `width` × `height`.",
      example:
        '<iframe src="https://api.example.com/embed/tracks/0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192" width="480" height="152" title="Neon Rain by Night Drive on Edge Music" style="border:0;border-radius:8px" loading="lazy" allow="autoplay; encrypted-media"></iframe>',
    }),
    width: z.number().int().openapi({ example: 480 }),
    height: z.number().int().openapi({ example: 152 }),
  })
  .openapi("OEmbed", {
    description: "An oEmbed 1.0 `rich` answer (oembed.com): the embeddable player as an iframe.",
  });
export type OEmbedView = z.infer<typeof OEmbedDto>;
