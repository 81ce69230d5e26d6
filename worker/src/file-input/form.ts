import type { Context } from "hono";

export const isMultipart = (c: Context) =>
  c.req.header("content-type")?.toLowerCase().startsWith("multipart/form-data") === true;
