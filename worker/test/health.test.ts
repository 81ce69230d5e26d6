import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { CLOSED_PORT, send, testBindings } from "./support/env.ts";
import { expectProblem } from "./support/problem.ts";

const app = createApp();

describe("GET /api/v1/health/live", () => {
  it("answers 200 without touching a dependency", async () => {
    const env = testBindings({
      DATABASE_URL: `postgres://x@127.0.0.1:${CLOSED_PORT}/x`,
      REDIS_URL: `redis://127.0.0.1:${CLOSED_PORT}`,
    });
    const response = await send(app, "/api/v1/health/live", {}, env);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });
});

describe("GET /api/v1/health/ready", () => {
  it("answers 200 when Postgres, Redis and storage answer", async () => {
    const response = await send(app, "/api/v1/health/ready");
    const body = (await response.json()) as {
      status: string;
      checks: Record<string, { status: string }>;
    };
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.status).toBe("ok");
    expect(Object.keys(body.checks).sort()).toEqual([
      "configuration",
      "postgres",
      "redis",
      "storage",
    ]);
    for (const check of Object.values(body.checks)) expect(check.status).toBe("up");
  });

  it("answers 503 naming the parts that are down, within the time bound", async () => {
    const env = testBindings({ REDIS_URL: `redis://127.0.0.1:${CLOSED_PORT}` });
    const started = Date.now();
    const response = await send(app, "/api/v1/health/ready", {}, env);
    expect(Date.now() - started).toBeLessThan(5_000);
    const body = await expectProblem(response, 503, "SERVICE_UNAVAILABLE");
    const checks = body.checks as Record<string, { status: string }>;
    expect(checks.redis?.status).toBe("down");
    expect(checks.postgres?.status).toBe("up");
    expect(checks.storage?.status).toBe("up");
    expect(body.detail).toContain("redis");
    expect(body.detail).not.toContain("postgres");
  });

  it("reports Postgres down when the database cannot be reached", async () => {
    const infraUrl = new URL(testBindings().DATABASE_URL ?? "");
    infraUrl.pathname = "/database_that_does_not_exist";
    const env = testBindings({ DATABASE_URL: infraUrl.toString() });
    const body = await expectProblem(
      await send(app, "/api/v1/health/ready", {}, env),
      503,
      "SERVICE_UNAVAILABLE",
    );
    expect((body.checks as Record<string, { status: string }>).postgres?.status).toBe("down");
    expect(JSON.stringify(body)).not.toContain("database_that_does_not_exist");
  });
});

describe("GET /api/v1/health/ready in staging and production", () => {
  const strong = (n: number) =>
    btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(n))));
  const production = (overrides: Record<string, string | undefined> = {}) =>
    testBindings({
      DEPLOYMENT: "production",
      // The suite hashes at the least cost (vitest.config.ts), which production refuses.
      PASSWORD_HASH_COST: "standard",
      MAIL_API_KEY: "re_test_key",
      JWT_SECRET: strong(48),
      ENCRYPTION_KEY: strong(32),
      OAUTH_GOOGLE_CLIENT_ID: "id",
      OAUTH_GOOGLE_CLIENT_SECRET: "secret",
      OAUTH_FACEBOOK_CLIENT_ID: "id",
      OAUTH_FACEBOOK_CLIENT_SECRET: "secret",
      ...overrides,
    });

  it("is ready when the configuration is complete", async () => {
    const response = await send(app, "/api/v1/health/ready", {}, production());
    const body = (await response.json()) as { checks: Record<string, { status: string }> };
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.checks.configuration?.status).toBe("up");
  });

  it("is not ready, naming what is wrong and never a value, without mail, with weak secrets or half a provider", async () => {
    const weak = "x".repeat(40);
    const response = await send(
      app,
      "/api/v1/health/ready",
      {},
      production({
        MAIL_API_KEY: undefined,
        JWT_SECRET: weak,
        ENCRYPTION_KEY: btoa("k".repeat(32)),
        OAUTH_FACEBOOK_CLIENT_SECRET: undefined,
      }),
    );
    const body = await expectProblem(response, 503, "SERVICE_UNAVAILABLE");
    const reason = (body.checks as Record<string, { status: string; reason?: string }>)
      .configuration;
    expect(reason?.status).toBe("down");
    for (const name of [
      "MAIL_API_KEY is not set",
      "JWT_SECRET is weak",
      "ENCRYPTION_KEY is weak",
      "OAUTH_FACEBOOK_CLIENT_ID and _CLIENT_SECRET must be set together",
    ]) {
      expect(reason?.reason).toContain(name);
    }
    expect(JSON.stringify(body)).not.toContain(weak);
  });

  it("lets development leave mail out", async () => {
    const response = await send(
      app,
      "/api/v1/health/ready",
      {},
      testBindings({ MAIL_API_KEY: undefined }),
    );
    expect(response.status).toBe(200);
  });
});
