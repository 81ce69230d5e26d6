import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import type { AppEnv } from "../src/app-env.ts";
import { StorageUnavailableError } from "../src/storage/port.ts";
import { validationHook } from "../src/validation/validator.ts";
import { send } from "./support/env.ts";
import { expectProblem } from "./support/problem.ts";

// A JSON route mounted on the real app, so the shared middleware and error handler are exercised.
const echo = createRoute({
  method: "post",
  path: "/echo",
  request: {
    body: {
      content: {
        "application/json": {
          schema: z.object({ name: z.string().min(3), age: z.number().int() }),
        },
      },
    },
  },
  responses: { 200: { description: "ok" } },
});
const testRoutes = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(echo, (c) => c.json(c.req.valid("json"), 200))
  .get("/boom", () => {
    throw new Error("secret internals: password=hunter2 at db.internal:5432");
  })
  // A failed query as drizzle reports it: the driver's error, with its SQLSTATE, as the cause.
  .get("/database/:sqlstate", (c) => {
    const cause = Object.assign(new Error("sorry, too many clients already"), {
      code: c.req.param("sqlstate"),
    });
    throw new Error("Failed query: select 1 from db.internal", { cause });
  })
  // A connection that broke under a query: no SQLSTATE, only the socket's message (workerd's).
  .get("/connection-lost", () => {
    throw new Error("Failed query: select 1 from db.internal", {
      cause: new Error("Network connection lost."),
    });
  })
  .get("/storage-down", () => {
    throw new StorageUnavailableError("S3 GET failed: connect ECONNREFUSED s3.internal:9000");
  });
const app = createApp();
app.route("/api/v1/test", testRoutes);

const json = (body: string, headers: Record<string, string> = {}) => ({
  method: "POST",
  body,
  headers: { "content-type": "application/json", ...headers },
});

describe("error model", () => {
  it("answers an unknown route with a 404 problem", async () => {
    const body = await expectProblem(await send(app, "/api/v1/nope"), 404, "NOT_FOUND");
    expect(body.detail).toContain("/api/v1/nope");
  });

  it("answers malformed JSON with a 400 problem", async () => {
    const response = await send(app, "/api/v1/test/echo", json('{"name": "abc",'));
    const body = await expectProblem(response, 400, "MALFORMED_REQUEST");
    expect(body.detail).toMatch(/json/i);
  });

  it("answers invalid fields with a 400 problem listing each field", async () => {
    const response = await send(app, "/api/v1/test/echo", json('{"name": "ab", "age": "x"}'));
    const body = await expectProblem(response, 400, "VALIDATION_FAILED");
    const paths = (body.errors as Array<{ path: string }>).map((e) => e.path).sort();
    expect(paths).toEqual(["json.age", "json.name"]);
  });

  it("passes valid input through the validator", async () => {
    const response = await send(app, "/api/v1/test/echo", json('{"name": "abc", "age": 3}'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ name: "abc", age: 3 });
  });

  it("answers a body over 1 MiB with a 413 problem", async () => {
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024), age: 1 });
    const body = await expectProblem(
      await send(app, "/api/v1/test/echo", json(big)),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    expect(body.limitBytes).toBe(1024 * 1024);
  });

  it("answers a streamed body (no Content-Length) over 1 MiB with a 413 problem", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const request = new Request("http://localhost/api/v1/test/echo", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
    });
    await expectProblem(await send(app, request), 413, "PAYLOAD_TOO_LARGE");
  });

  it.each([
    ["53300", "too many connections"],
    ["08006", "the connection failed"],
    ["57P01", "the server is shutting down"],
    ["57P03", "the server is starting"],
  ])(
    "answers a database that cannot take the request (%s: %s) with a 503 to retry",
    async (sqlstate) => {
      const response = await send(app, `/api/v1/test/database/${sqlstate}`);
      const body = await expectProblem(response, 503, "SERVICE_UNAVAILABLE");
      expect(response.headers.get("retry-after")).toBe("1");
      expect(JSON.stringify(body)).not.toMatch(/db\.internal|too many clients|select/i);
    },
  );

  it("answers a connection lost under a query (a load run's 500) with a 503 to retry", async () => {
    const response = await send(app, "/api/v1/test/connection-lost");
    const body = await expectProblem(response, 503, "SERVICE_UNAVAILABLE");
    expect(response.headers.get("retry-after")).toBe("1");
    expect(JSON.stringify(body)).not.toMatch(/db\.internal|select|Network/i);
  });

  it("keeps other database errors a 500", async () => {
    await expectProblem(await send(app, "/api/v1/test/database/XX000"), 500, "INTERNAL");
  });

  it("answers storage that cannot be reached with a 503 that reveals nothing", async () => {
    const response = await send(app, "/api/v1/test/storage-down");
    const body = await expectProblem(response, 503, "SERVICE_UNAVAILABLE");
    expect(response.headers.get("retry-after")).toBe("1");
    expect(JSON.stringify(body)).not.toMatch(/s3\.internal|ECONNREFUSED/);
  });

  it("answers an unknown error with a 500 problem that reveals nothing", async () => {
    const response = await send(app, "/api/v1/test/boom");
    const body = await expectProblem(response, 500, "INTERNAL");
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/hunter2|db\.internal|secret|stack/i);
  });
});

describe("request id", () => {
  it("is made when the caller sends none, and is a UUID", async () => {
    const response = await send(app, "/api/v1/health/live");
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps a safe id from the caller", async () => {
    const response = await send(app, "/api/v1/health/live", {
      headers: { "x-request-id": "trace-1234.abc" },
    });
    expect(response.headers.get("x-request-id")).toBe("trace-1234.abc");
  });

  it("replaces an unsafe id from the caller", async () => {
    const response = await send(app, "/api/v1/health/live", {
      headers: { "x-request-id": "<script>alert(1)</script>" },
    });
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers a value the database refuses (a NUL byte) with 400, not 500", async () => {
    const bad = await send(app, "/api/v1/artists/by-username/a%00b");
    await expectProblem(bad, 400, "MALFORMED_REQUEST");
  });
});
