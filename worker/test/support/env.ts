import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env as bindings } from "cloudflare:workers";
import { inject } from "vitest";
// By path: the stack package as a whole is Node-only; this module has no imports.
import { standInOAuthVars } from "../../../stack/src/stand-ins/oauth/clients.ts";
import type { Bindings } from "../../src/env.ts";
import { assertConforms } from "./contract.ts";
import { playsBinding, sentPlays } from "./plays.ts";

/**
 * Bindings for one test: the miniflare ones (the R2 bucket MEDIA, vars) pointed at the real
 * Postgres (its migrated application database, through the pooler and the Neon bridge), Redis and the
 * stand-ins (OAuth providers, mail API) that the global setup started.
 */
export function testBindings(overrides: Partial<Bindings> = {}): Bindings {
  const infra = inject("infra");
  return {
    ...(bindings as Bindings),
    // Through the stack's pooler, as the Worker reaches Neon's pooled endpoint (ADR 0008).
    DATABASE_URL: inject("appPooledDatabaseUrl"),
    NEON_HTTP_ENDPOINT: infra.neonHttpEndpoint,
    REDIS_URL: infra.redisUrl,
    STORAGE_DRIVER: "r2",
    // R2's S3 API for direct uploads, as in production: the S3-compatible test server. A test of
    // direct uploads runs the whole Worker on it (STORAGE_DRIVER "s3"), so both see one bucket.
    S3_ENDPOINT: infra.s3.endpoint,
    S3_REGION: infra.s3.region,
    S3_BUCKET: infra.s3.bucket,
    S3_ACCESS_KEY_ID: infra.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: infra.s3.secretAccessKey,
    ...standInBindings(infra.standIns.url),
    // Plays go to a stand-in that keeps them, never to miniflare's queue (support/plays.ts).
    PLAYS: playsBinding(sentPlays),
    ...overrides,
  };
}

interface Fetchable {
  fetch(request: Request, env: Bindings, ctx: ExecutionContext): Response | Promise<Response>;
}

/**
 * Sends a request through the app in workerd and waits for its `waitUntil` work (closing sockets).
 * The answer is checked against the OpenAPI document first (support/contract.ts): a test that
 * gets an answer the document does not describe fails.
 */
export async function send(
  app: Fetchable,
  input: string | Request,
  init: RequestInit = {},
  env: Bindings = testBindings(),
): Promise<Response> {
  const request =
    typeof input === "string" ? new Request(new URL(input, "http://localhost"), init) : input;
  const ctx = createExecutionContext();
  // The app may read the request's body: the contract check needs only its method and URL.
  const asked = new Request(request.url, { method: request.method });
  const response = await app.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  await assertConforms(asked, response);
  return response;
}

/** A port on which nothing listens (the discard port is closed on every machine we test on). */
export const CLOSED_PORT = 9;

/** The OAuth providers and the mail API pointed at the local stand-ins. */
function standInBindings(url: string): Partial<Bindings> {
  return {
    ...standInOAuthVars(url),
    MAIL_API_URL: `${url}/mail/emails`,
    MAIL_API_KEY: "test-mail-key",
  };
}
