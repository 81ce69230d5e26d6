import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env as bindings } from "cloudflare:workers";
import { inject } from "vitest";
import type { Bindings } from "../../src/env.ts";

/**
 * Bindings for one test: the miniflare ones (the R2 bucket MEDIA, vars) pointed at the real
 * Postgres (through the Neon bridge) and Redis that the global setup started.
 */
export function testBindings(overrides: Partial<Bindings> = {}): Bindings {
  const infra = inject("infra");
  return {
    ...(bindings as Bindings),
    DATABASE_URL: infra.databaseUrl,
    NEON_WS_PROXY: infra.neonWsProxy,
    REDIS_URL: infra.redisUrl,
    STORAGE_DRIVER: "r2",
    ...overrides,
  };
}

interface Fetchable {
  fetch(request: Request, env: Bindings, ctx: ExecutionContext): Response | Promise<Response>;
}

/** Sends a request through the app in workerd and waits for its `waitUntil` work (closing sockets). */
export async function send(
  app: Fetchable,
  input: string | Request,
  init: RequestInit = {},
  env: Bindings = testBindings(),
): Promise<Response> {
  const request =
    typeof input === "string" ? new Request(new URL(input, "http://localhost"), init) : input;
  const ctx = createExecutionContext();
  const response = await app.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** A port on which nothing listens (the discard port is closed on every machine we test on). */
export const CLOSED_PORT = 9;
