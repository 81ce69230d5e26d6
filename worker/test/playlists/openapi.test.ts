import { describe, expect, it } from "vitest";
import { Client } from "../support/auth.ts";

interface Operation {
  security?: unknown[];
  responses: Record<string, unknown>;
  requestBody?: { content: Record<string, unknown> };
}

describe("playlists in the API reference", () => {
  it("documents all eleven routes with their statuses and both update bodies", async () => {
    const response = await new Client().get("/api/v1/openapi.json");
    expect(response.status).toBe(200);
    const doc = (await response.json()) as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, unknown> };
    };
    const op = (path: string, method: string) => doc.paths[`/api/v1/playlists${path}`]?.[method];
    const expected: Array<[string, string, string[]]> = [
      ["", "get", ["200", "400"]],
      ["", "post", ["201", "400", "401", "403"]],
      ["/me", "get", ["200", "400", "401", "403"]],
      ["/{id}", "get", ["200", "400", "401", "404"]],
      ["/{id}", "put", ["200", "400", "401", "403", "404", "413", "415"]],
      ["/{id}", "delete", ["204", "400", "401", "403", "404"]],
      ["/{id}/tracks", "post", ["200", "400", "401", "403", "404", "409"]],
      ["/{id}/tracks", "put", ["200", "400", "401", "403", "404", "409", "413", "415"]],
      ["/{id}/tracks/{trackId}", "delete", ["200", "400", "401", "403", "404"]],
      ["/{id}/like", "post", ["200", "400", "401", "403", "404"]],
      ["/{id}/like", "delete", ["200", "400", "401", "403", "404"]],
    ];
    for (const [path, method, statuses] of expected) {
      const operation = op(path, method);
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(Object.keys(operation?.responses ?? {}), `${method} ${path}`).toEqual(
        expect.arrayContaining(statuses),
      );
    }
    expect(Object.keys(op("/{id}", "put")?.requestBody?.content ?? {})).toEqual([
      "application/json",
      "multipart/form-data",
    ]);
    expect(op("/me", "get")?.security).toEqual([{ accessCookie: [] }]);
    expect(doc.components.schemas).toHaveProperty("Playlist");
    expect(doc.components.schemas).toHaveProperty("OwnPlaylist");
  });
});
