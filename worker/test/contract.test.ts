import { describe, expect, it } from "vitest";
import { app } from "./support/auth.ts";
import { contractViolations } from "./support/contract.ts";
import { send } from "./support/env.ts";

const get = (path: string) => new Request(`http://localhost${path}`);
const json = (body: unknown, status = 200, type = "application/json") =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": type } });

describe("the contract check every test's answers go through", () => {
  it("passes an answer the document describes", async () => {
    const response = await send(app, "/api/v1/health/live");
    expect(response.status).toBe(200);
    expect(await contractViolations(get("/api/v1/health/live"), response)).toEqual([]);
  });

  it("catches a body that breaks the documented schema", async () => {
    const id = crypto.randomUUID();
    const problems = await contractViolations(
      get(`/api/v1/tracks/${id}`),
      json({ id: 5, title: null }),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^GET \/api\/v1\/tracks\/\{id\} → 200: body /);
  });

  it("catches a status, or a content type, the operation does not document", async () => {
    const path = `/api/v1/tracks/${crypto.randomUUID()}`;
    expect(await contractViolations(get(path), json({}, 418))).toEqual([
      expect.stringMatching(/→ 418: status not documented/),
    ]);
    expect(
      await contractViolations(
        get(path),
        new Response("<p>hi</p>", { headers: { "content-type": "text/html" } }),
      ),
    ).toEqual([expect.stringMatching(/content type "text\/html" not documented/)]);
  });

  it("leaves paths the document does not know alone (unknown routes answer 404 problems)", async () => {
    expect(await contractViolations(get("/api/v1/nowhere"), json({}, 404))).toEqual([]);
  });
});
