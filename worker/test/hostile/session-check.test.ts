// The session check that rides on a signed-in request's first round trip (ADR 0010): it must not
// be spent by a round trip made before the caller is known, and a route that queries before its
// guard must fail loudly in development (the route-guard sweep then fails on it).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { createHttpDb, pgErrorCode } from "@edge-music/db";
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { describe, expect, inject, it } from "vitest";
import type { AppEnv } from "../../src/app-env.ts";
import { onError } from "../../src/errors/on-error.ts";
import { requestContext } from "../../src/middleware/request-context.ts";
import { signedIn } from "../../src/security/guard.ts";
import { type Client, registerAccount } from "../support/auth.ts";
import { testBindings } from "../support/env.ts";

/** A route that asks the database something before its guard, then again after it. */
const queryFirst = createMiddleware<AppEnv>(async (c, next) => {
  await c.var.deps.db.execute(sql`select 1`);
  await next();
});

const app = new Hono<AppEnv>()
  .use(requestContext)
  .get("/probe/before-guard", queryFirst, ...signedIn("user").middleware, async (c) => {
    await c.var.deps.db.execute(sql`select 2`);
    return c.json({ ok: true });
  })
  .get("/probe/after-guard", ...signedIn("user").middleware, async (c) => {
    await c.var.deps.db.execute(sql`select 2`);
    return c.json({ ok: true });
  });
app.onError(onError);

async function probe(path: string, client: Client): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await app.fetch(
    new Request(`http://localhost${path}`, {
      headers: { cookie: client.jar.header("/api/v1/probe"), "cf-connecting-ip": client.ip },
    }),
    testBindings(),
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

describe("the session check", () => {
  it("fails a signed-in route that queried the database before its guard (500 in development)", async () => {
    const account = await registerAccount("user");
    const before = await probe("/probe/before-guard", account.client);
    expect(before.status).toBe(500);
    expect(((await before.json()) as { detail: string }).detail).toMatch(
      /1 database round trip\(s\) before its guard/,
    );
    const after = await probe("/probe/after-guard", account.client);
    expect(after.status).toBe(200);
  });

  it("rides on the first round trip that knows the caller, not on the first round trip", async () => {
    let known = false;
    const db = createHttpDb(inject("appPooledDatabaseUrl"), {
      httpEndpoint: inject("infra").neonHttpEndpoint,
      // Nothing to add until the caller is known (here: the second round trip); then a check
      // that fails, as a dead session's does.
      lead: () => (known ? sql`select 1 / 0` : undefined),
    });
    expect((await db.execute(sql`select 1 as one`)).rows).toEqual([{ one: 1 }]);
    known = true;
    const refused = await db.execute(sql`select 2`).catch((error: unknown) => error);
    expect(pgErrorCode(refused)).toBe("22012"); // division_by_zero: the lead went first
    // Spent once it yielded: the next round trip goes alone.
    expect((await db.execute(sql`select 3 as three`)).rows).toEqual([{ three: 3 }]);
  });
});
