import { createRoute, z } from "@hono/zod-openapi";
import { NotFoundError } from "../../errors/app-error.ts";
import { mediaKey } from "../../images/images.ts";
import { problemResponses } from "../../openapi/problem-responses.ts";
import { newRouter } from "../../openapi/router.ts";
import { publicRoute } from "../../security/guard.ts";

const serve = createRoute({
  method: "get",
  path: "/{folder}/{file}",
  operationId: "getStaticImage",
  ...publicRoute(),
  tags: ["Media"],
  summary: "An image (avatar, background, cover)",
  description:
    "Serves the media paths found in `avatar`, `backgroundImage` and `cover` fields, with their content type and ETag. Every upload gets a new name, so responses are cacheable for a year (`immutable`); `If-None-Match` answers 304.",
  request: {
    params: z.object({
      folder: z
        .enum(["avatars", "backgrounds", "covers"])
        .openapi({ param: { name: "folder", in: "path" } }),
      file: z
        .string()
        .max(64)
        .openapi({
          param: { name: "file", in: "path" },
          example: "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192.webp",
        }),
    }),
  },
  responses: {
    200: {
      description: "The image.",
      content: { "image/*": { schema: { type: "string", format: "binary" } } },
    },
    304: { description: "Not modified." },
    ...problemResponses(400, 404),
  },
});

/** /static/*: images from object storage. */
export const staticRoutes = newRouter().openapi(serve, async (c) => {
  const { folder, file } = c.req.valid("param");
  const key = mediaKey(`/static/${folder}/${file}`);
  const object = key ? await c.var.deps.storage.get(key) : null;
  if (!object) throw new NotFoundError("No such image.");
  const headers = {
    "content-type": object.contentType ?? "application/octet-stream",
    etag: object.etag,
    "cache-control": "public, max-age=31536000, immutable",
    "x-content-type-options": "nosniff",
    // Opened directly, an image gets no script, form, plugin or same-origin rights, whatever
    // bytes ride along after its header.
    "content-security-policy": "default-src 'none'; sandbox",
  };
  if (c.req.header("if-none-match") === object.etag) {
    await object.body.cancel();
    return c.body(null, 304, headers);
  }
  return c.body(object.body, 200, { ...headers, "content-length": String(object.size) });
});
