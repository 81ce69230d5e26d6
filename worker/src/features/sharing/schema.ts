import { z } from "@hono/zod-openapi";

/** Who may reach a track, an album or a playlist (ADR 0025). */
export const Visibility = z.enum(["public", "unlisted", "private"]).openapi("Visibility", {
  description:
    "`public`: listed everywhere (catalogue, artist pages, search, feeds, related tracks, playlists). `unlisted`: listed nowhere; read only by the owner or with its link (`?key=…`, GET …/share-link). `private`: the owner alone. An item that is not public answers 404 to anyone else, as a missing one does.",
  example: "public",
});
export type VisibilityValue = z.infer<typeof Visibility>;

/** `?key=…`: an unlisted item's share key, from its link. */
export const ShareKeyQuery = z.object({
  key: z
    .string()
    .max(64, "at most 64 characters")
    .optional()
    .openapi({
      param: { name: "key", in: "query" },
      description:
        "The share key of an unlisted item's link (GET …/share-link). With the current key the item is answered to anyone; a wrong or rotated key is the same 404 as no key. Ignored for a public item. An answer to a request with `key` is never kept by the edge cache or a shared cache (`Cache-Control: private, no-store`, `x-edge-cache: bypass`).",
      example: "3f1c0e9a7b2d4c6e8f0a1b2c3d4e5f60",
    }),
});

export const ShareLinkDto = z
  .object({
    url: z.url().openapi({
      example:
        "https://music.example.com/tracks/0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192?key=3f1c0e9a7b2d4c6e8f0a1b2c3d4e5f60",
      description:
        "The item's page in the web player with its share key (`?key=…`): whoever holds it reads the item while it is unlisted (or public), until the owner rotates the key.",
    }),
  })
  .openapi("ShareLink");
export type ShareLinkView = z.infer<typeof ShareLinkDto>;
