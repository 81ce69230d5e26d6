import { z } from "@hono/zod-openapi";

export const MAX_PAGE_LIMIT = 100;
export const DEFAULT_PAGE_LIMIT = 20;

/** `page` ≥ 1 (default 1) and `limit` 1–100 (default 20); anything else is a 400. */
export const PageQuery = z.object({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .default(1)
    .openapi({ param: { name: "page", in: "query" }, example: 1, description: "1-based page." }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_LIMIT)
    .default(DEFAULT_PAGE_LIMIT)
    .openapi({
      param: { name: "limit", in: "query" },
      example: DEFAULT_PAGE_LIMIT,
      description: `Items per page, 1–${MAX_PAGE_LIMIT}.`,
    }),
});
export type Page = z.infer<typeof PageQuery>;

export const offsetOf = (page: Page) => (page.page - 1) * page.limit;

/** A UUID path parameter; anything else is a 400, never a database error. */
export const uuidParam = (name: string) =>
  z
    .uuid()
    // Ids are matched in any case: storage keys and cache keys hold the lower-case form.
    .toLowerCase()
    .openapi({ param: { name, in: "path" }, example: "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192" });

export const IdParams = z.object({ id: uuidParam("id") });

export const Timestamp = z.iso.datetime().openapi({ example: "2026-11-23T10:15:30.000Z" });

/** A media path such as /static/covers/<id>.webp, or null when there is none. */
export const MediaPath = z
  .string()
  .nullable()
  .openapi({ example: "/static/covers/0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192.webp" });
