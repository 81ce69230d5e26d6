import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { PayloadTooLargeError } from "../errors/app-error.ts";

/** JSON and form bodies: 1 MiB is far above any valid request of the API. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Caps non-multipart bodies (by Content-Length up front, else while reading). Multipart uploads
 * are streamed by their own routes, which enforce their own, larger limits.
 */
export const jsonBodyLimit = createMiddleware(async (c, next) => {
  if (c.req.header("content-type")?.toLowerCase().startsWith("multipart/form-data")) return next();
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
