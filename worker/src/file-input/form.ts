import type { Context } from "hono";
import { MalformedRequestError, UnsupportedMediaTypeError } from "../errors/app-error.ts";

export const isMultipart = (c: Context) =>
  c.req.header("content-type")?.toLowerCase().startsWith("multipart/form-data") === true;

/**
 * The fields of a multipart body (images are at most a few MB, so reading it whole is fine;
 * the route's multipartLimit bounds it first). Not multipart → 415; unparseable → 400.
 */
export async function readMultipart(c: Context): Promise<Record<string, string | File>> {
  if (!isMultipart(c)) throw new UnsupportedMediaTypeError("Send multipart/form-data.");
  try {
    return (await c.req.parseBody({ all: false })) as Record<string, string | File>;
  } catch (error) {
    throw new MalformedRequestError("The multipart body could not be read.", { cause: error });
  }
}
