import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../app-env.ts";
import { ServiceUnavailableError } from "../../errors/app-error.ts";
import { problemResponses } from "../../openapi/problem-responses.ts";
import { publicRoute } from "../../security/guard.ts";
import { validationHook } from "../../validation/validator.ts";
import { checkReadiness } from "./service.ts";

const CheckSchema = z
  .object({
    status: z.enum(["up", "down"]),
    latencyMs: z.number().int(),
    reason: z.string().optional(),
  })
  .openapi("HealthCheck");

const ReadySchema = z
  .object({
    status: z.literal("ok"),
    checks: z.object({
      configuration: CheckSchema,
      postgres: CheckSchema,
      redis: CheckSchema,
      storage: CheckSchema,
    }),
  })
  .openapi("Readiness");

const live = createRoute({
  method: "get",
  path: "/live",
  operationId: "getLiveness",
  ...publicRoute(),
  tags: ["Health"],
  summary: "Liveness",
  description: "Answers 200 while the Worker runs. Touches no dependency.",
  responses: {
    200: {
      description: "Alive.",
      content: { "application/json": { schema: z.object({ status: z.literal("ok") }) } },
    },
  },
});

const ready = createRoute({
  method: "get",
  path: "/ready",
  operationId: "getReadiness",
  ...publicRoute(),
  tags: ["Health"],
  summary: "Readiness",
  description:
    "Checks the deployment's configuration, then Postgres, Redis and object storage concurrently, each bounded to 2 s. 503 (a problem document with the same `checks` member) names the parts that are down. In staging and production (`DEPLOYMENT`), `configuration` is down, with the names of what is wrong (never values), when MAIL_API_KEY is missing, a secret is weak (fewer than 12 distinct characters or bytes: a placeholder) or an identity provider has its client id without its secret or the reverse.",
  responses: {
    200: {
      description: "Every dependency answered.",
      content: { "application/json": { schema: ReadySchema } },
    },
    ...problemResponses(503),
  },
});

export const healthRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(live, (c) => {
    c.header("cache-control", "no-store");
    return c.json({ status: "ok" as const }, 200);
  })
  .openapi(ready, async (c) => {
    const { ready: ok, checks } = await checkReadiness(c.var.deps);
    if (!ok) {
      const down = Object.entries(checks)
        .filter(([, check]) => check.status === "down")
        .map(([part]) => part);
      throw new ServiceUnavailableError(`Not ready: ${down.join(", ")} unavailable.`, {
        extensions: { checks },
      });
    }
    c.header("cache-control", "no-store");
    return c.json({ status: "ok" as const, checks }, 200);
  });
