import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { send } from "./support/env.ts";
import { expectProblem } from "./support/problem.ts";

const app = createApp();

interface Response3 {
  headers?: Record<string, { $ref?: string }>;
  content?: Record<string, unknown>;
}
interface Operation3 {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: unknown;
  responses: Record<string, Response3>;
}
interface Document3 {
  tags?: Array<{ name: string; description?: string }>;
  info: { license?: { name: string } };
  paths: Record<string, Record<string, Operation3>>;
  components: { headers?: Record<string, unknown> };
}

const loadDocument = async () =>
  (await (await send(app, "/api/v1/openapi.json")).json()) as Document3;

const operationsOf = (doc: Document3) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );

const headerNames = (response: Response3 | undefined) => Object.keys(response?.headers ?? {});

describe("API reference", () => {
  it("serves an OpenAPI 3.1 document listing the routes", async () => {
    const response = await send(app, "/api/v1/openapi.json");
    expect(response.status).toBe(200);
    const doc = (await response.json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/v1/health/live", "/api/v1/health/ready"]),
    );
    expect(doc.paths["/api/v1/health/ready"]?.get?.responses).toHaveProperty("503");
    expect(doc.components.schemas).toHaveProperty("Problem");
  });

  it("documents every auth route of both kinds, and the cookie security scheme", async () => {
    const doc = (await (await send(app, "/api/v1/openapi.json")).json()) as {
      paths: Record<string, Record<string, { security?: unknown[]; tags?: string[] }>>;
      components: { securitySchemes?: Record<string, { in?: string; name?: string }> };
    };
    const routes = [
      ["post", "register"],
      ["post", "login"],
      ["post", "refresh"],
      ["post", "logout"],
      ["get", "me"],
      ["post", "2fa/enable"],
      ["post", "2fa/verify"],
      ["post", "2fa/disable"],
      ["post", "2fa/complete"],
      ["get", "oauth/{provider}"],
      ["get", "oauth/{provider}/callback"],
      ["post", "password/forgot"],
      ["post", "password/reset"],
    ] as const;
    for (const kind of ["users", "artists"]) {
      for (const [method, path] of routes) {
        expect(
          doc.paths[`/api/v1/${kind}/auth/${path}`],
          `${method} ${kind}/${path}`,
        ).toHaveProperty(method);
      }
    }
    expect(doc.paths["/api/v1/users/me"]?.get?.security).toEqual([{ accessCookie: [] }]);
    expect(doc.components.securitySchemes?.accessCookie).toMatchObject({
      in: "cookie",
      name: "access_token",
    });
  });

  it("serves an interactive reference page", async () => {
    const response = await send(app, "/api/v1/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    const html = await response.text();
    expect(html).toContain("/api/v1/openapi.json");
    // Its script from this origin, started under a nonce that only this answer's policy names.
    expect(html).toContain('<script src="/api-reference/standalone.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    const policy = response.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? "";
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'self'");
    const again = await send(app, "/api/v1/docs");
    expect(again.headers.get("content-security-policy")).not.toContain(nonce);
  });

  it("names every operation with a unique, camelCase, verb-first operationId", async () => {
    const operations = operationsOf(await loadDocument());
    const ids = operations.map(({ op }) => op.operationId);
    expect(operations.filter(({ op }) => !op.operationId).map(({ name }) => name)).toEqual([]);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect(ids.filter((id) => !/^[a-z]+[A-Z][A-Za-z0-9]*$/.test(id ?? ""))).toEqual([]);
    const byName = Object.fromEntries(operations.map(({ name, op }) => [name, op.operationId]));
    expect(byName).toMatchObject({
      "POST /api/v1/users/auth/register": "registerUser",
      "POST /api/v1/artists/auth/register": "registerArtist",
      "GET /api/v1/tracks/{id}": "getTrack",
      "GET /api/v1/artists/me/tracks": "listMyTracks",
      "GET /api/v1/tracks/stream/{id}/hls/master.m3u8": "streamHlsMaster",
    });
  });

  it("lists every tag an operation uses, each with a description", async () => {
    const doc = await loadDocument();
    const listed = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
    const used = new Set(operationsOf(doc).flatMap(({ op }) => op.tags ?? []));
    expect([...used].filter((tag) => !listed.has(tag))).toEqual([]);
    expect([...listed].filter(([, description]) => !description)).toEqual([]);
    expect(doc.info.license?.name).toBe("MIT");
  });

  it("states the security of every operation, [] for public ones", async () => {
    const operations = operationsOf(await loadDocument());
    expect(
      operations.filter(({ op }) => !Array.isArray(op.security)).map(({ name }) => name),
    ).toEqual([]);
    // A route that shows more to a signed-in caller answers 401 to a present but invalid cookie.
    const optional = operations.filter(({ op }) =>
      op.security?.some((alternative) => Object.keys(alternative as object).length === 0),
    );
    expect(optional.length).toBeGreaterThan(0);
    expect(optional.filter(({ op }) => !op.responses["401"]).map(({ name }) => name)).toEqual([]);
    const security = Object.fromEntries(operations.map(({ name, op }) => [name, op.security]));
    expect(security["POST /api/v1/users/auth/login"]).toEqual([]);
    expect(security["GET /api/v1/artists"]).toEqual([]);
  });

  it("documents 415 wherever a request body is read", async () => {
    const operations = operationsOf(await loadDocument());
    const missing = operations
      .filter(({ op }) => op.requestBody && !op.responses["415"])
      .map(({ name }) => name);
    expect(missing).toEqual([]);
    expect(
      Object.keys(
        operations.find(({ name }) => name === "POST /api/v1/users/auth/register")?.op.responses ??
          {},
      ),
    ).toEqual(expect.arrayContaining(["415", "429"]));
  });

  it("documents 503 (with Retry-After) on every operation that reaches a database, Redis or storage", async () => {
    const operations = operationsOf(await loadDocument());
    const without = operations.filter(({ op }) => !op.responses["503"]).map(({ name }) => name);
    // Only these answer without any of them.
    expect(without.sort()).toEqual([
      "GET /api/v1/docs",
      "GET /api/v1/health/live",
      "GET /api/v1/openapi.json",
    ]);
    const unavailable = operations.find(({ name }) => name === "GET /api/v1/tracks/{id}")?.op
      .responses["503"] as { headers?: Record<string, unknown> } | undefined;
    expect(Object.keys(unavailable?.headers ?? {})).toContain("Retry-After");
  });

  it("documents the document and the reference page as operations", async () => {
    const doc = await loadDocument();
    expect(doc.paths["/api/v1/openapi.json"]?.get).toMatchObject({
      operationId: "getOpenApiDocument",
      tags: ["Reference"],
      security: [],
    });
    expect(doc.paths["/api/v1/docs"]?.get?.responses["200"]?.content).toHaveProperty("text/html");
  });

  it("declares the response headers the service sends", async () => {
    const doc = await loadDocument();
    expect(Object.keys(doc.components.headers ?? {}).sort()).toEqual(
      [
        "Accept-Ranges",
        "Cache-Control",
        "Content-Range",
        "ETag",
        "Retry-After",
        "Set-Cookie",
        "X-Request-Id",
        "x-edge-cache",
      ].sort(),
    );
    const op = (path: string, method = "get") => doc.paths[path]?.[method];
    const everyResponse = operationsOf(doc).flatMap(({ op: o }) => Object.values(o.responses));
    expect(everyResponse.filter((r) => !r.headers?.["X-Request-Id"])).toEqual([]);
    expect(headerNames(op("/api/v1/users/auth/login", "post")?.responses["200"])).toContain(
      "Set-Cookie",
    );
    expect(headerNames(op("/api/v1/users/auth/login", "post")?.responses["429"])).toContain(
      "Retry-After",
    );
    expect(headerNames(op("/api/v1/artists")?.responses["200"])).toEqual(
      expect.arrayContaining(["ETag", "Cache-Control", "x-edge-cache"]),
    );
    const hls = op("/api/v1/tracks/stream/{id}/hls/{bitrate}/{file}");
    expect(headerNames(hls?.responses["206"])).toEqual(
      expect.arrayContaining(["Content-Range", "Accept-Ranges"]),
    );
    expect(Object.keys(hls?.responses["200"]?.content ?? {})).toEqual(
      expect.arrayContaining(["application/vnd.apple.mpegurl", "audio/mp4"]),
    );
    // What middleware answers for every operation of a kind: 304 to If-None-Match on a GET,
    // 413 past the body limit on anything that can carry a body.
    expect(op("/api/v1/artists")?.responses).toHaveProperty("304");
    expect(op("/api/v1/artists/{id}/follow", "delete")?.responses).toHaveProperty("413");
    // An event stream has no ETag: its digest would wait for the end of the stream.
    expect(headerNames(op("/api/v1/tracks/{id}/events")?.responses["200"])).not.toContain("ETag");
  });
});

describe("methods", () => {
  it("405 with Allow for a known path asked with a method it does not take", async () => {
    const response = await send(app, "/api/v1/health/live", { method: "POST" });
    await expectProblem(response, 405, "METHOD_NOT_ALLOWED");
    expect(response.headers.get("allow")).toBe("GET, HEAD");

    const track = await send(app, `/api/v1/tracks/${crypto.randomUUID()}`, { method: "PATCH" });
    await expectProblem(track, 405, "METHOD_NOT_ALLOWED");
    expect(track.headers.get("allow")?.split(", ").sort()).toEqual(
      ["DELETE", "GET", "HEAD", "PUT"].sort(),
    );
  });

  it("404 for a path no route takes, whatever the method", async () => {
    for (const method of ["GET", "POST"]) {
      const response = await send(app, "/api/v1/no-such-thing", { method });
      await expectProblem(response, 404, "NOT_FOUND");
      expect(response.headers.get("allow")).toBeNull();
    }
  });
});
