import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { send } from "./support/env.ts";

const app = createApp();

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
    expect(await response.text()).toContain("/api/v1/openapi.json");
  });
});
