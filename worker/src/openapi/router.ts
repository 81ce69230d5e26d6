import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../app-env.ts";
import type { PrincipalKind } from "../security/account-kinds.ts";
import { validationHook } from "../validation/validator.ts";

/** Every feature's sub-app: validation failures become our 400 problem documents. */
export const newRouter = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

/** A JSON response entry for `createRoute({ responses })`. */
export const json = <T>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A required JSON request body for `createRoute({ request })`. */
export const jsonBody = <T>(schema: T) => ({
  body: { required: true, content: { "application/json": { schema } } },
});

/** `security` of routes that need a signed-in principal (the access_token cookie). */
export const COOKIE_SECURITY = [{ accessCookie: [] }];

/**
 * A route for one kind of signed-in account: the cookie scheme, and the kind as the operation's
 * `x-account-kind`, so that clients, and the whole-table guard test, can read from the document
 * which session a route takes.
 */
export const signedIn = (kind: PrincipalKind) =>
  ({ security: COOKIE_SECURITY, "x-account-kind": kind }) as const;

/** Public routes that show more to a signed-in caller; a present but invalid cookie is a 401. */
export const OPTIONAL_COOKIE_SECURITY = [{}, ...COOKIE_SECURITY];

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
