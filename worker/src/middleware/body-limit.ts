import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { PayloadTooLargeError } from "../errors/app-error.ts";

/** JSON and form bodies: 1 MiB is far above any valid request of the API. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The part of a direct upload sent through the Worker (PUT /uploads/{id}/parts/{n}): raw bytes,
 * up to a part's size, streamed to storage by its route, which takes exactly the part's length.
 */
const UPLOAD_PART = /^\/api\/v1\/uploads\/[^/]+\/parts\/[^/]+$/;

/**
 * Caps non-multipart bodies (by Content-Length up front, else while reading). Multipart uploads
 * and direct-upload parts are streamed by their own routes, which enforce their own limits.
 */
export const jsonBodyLimit = createMiddleware(async (c, next) => {
  if (c.req.header("content-type")?.toLowerCase().startsWith("multipart/form-data")) return next();
  if (c.req.method === "PUT" && UPLOAD_PART.test(c.req.path)) return next();
  return bodyLimit({
    maxSize: JSON_BODY_LIMIT_BYTES,
    onError: () => {
      throw new PayloadTooLargeError(JSON_BODY_LIMIT_BYTES);
    },
  })(c, next);
});

/** Caps a multipart route's body (image uploads): 413 above `maxBytes`. */
export const multipartLimit = (maxBytes: number) =>
  createMiddleware(async (c, next) =>
    bodyLimit({
      maxSize: maxBytes,
      onError: () => {
        throw new PayloadTooLargeError(maxBytes);
      },
    })(c, next),
  );
