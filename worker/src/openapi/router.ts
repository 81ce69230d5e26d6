import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env.ts";
import { validationHook } from "../validation/validator.ts";
import { type HeaderName, responseHeaders } from "./headers.ts";

/** Every feature's sub-app: validation failures become our 400 problem documents. */
export const newRouter = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

/** A JSON response entry for `createRoute({ responses })`. */
export const json = <T>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A response entry with the headers its route sets itself (the middleware's are added later). */
export const withHeaders = <R extends object>(response: R, ...names: HeaderName[]) => ({
  ...response,
  headers: responseHeaders(...names),
});

/** A required JSON request body for `createRoute({ request })`. */
export const jsonBody = <T>(schema: T) => ({
  body: { required: true, content: { "application/json": { schema } } },
});

/** A JSON body the request may leave out (the handler then reads `{}`). */
export const optionalJsonBody = <T>(schema: T) => ({
  body: { required: false, content: { "application/json": { schema } } },
});

/**
 * A body sent as JSON, or as multipart/form-data when it carries files (images). Not required,
 * so each validator runs only for its own content type; the handler checks for an empty update.
 */
export const jsonOrMultipartBody = <J, F>(jsonSchema: J, formSchema: F) => ({
  body: {
    required: false,
    content: {
      "application/json": { schema: jsonSchema },
      "multipart/form-data": { schema: formSchema },
    },
  },
});
