import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../../app-env.ts";
import type { PrincipalKind } from "../../../auth/kinds.ts";
import { validationHook } from "../../../validation/validator.ts";

export const newRouter = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

export const tagOf = (kind: PrincipalKind) => (kind === "user" ? "User auth" : "Artist auth");

/** `a user` / `an artist`, for descriptions. */
export const aKind = (kind: PrincipalKind) => (kind === "user" ? "a user" : "an artist");

export const PENDING_COOKIE = "pending_2fa";
export const STATE_COOKIE = "oauth_state";

export const json = <T>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

export const jsonBody = <T>(schema: T) => ({
  body: { required: true, content: { "application/json": { schema } } },
});

export const COOKIE_SECURITY = [{ accessCookie: [] }];
