import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../src/app-env.ts";
import {
  EDGE,
  type EdgePolicy,
  edgeCached,
  edgeCacheKey,
  edgeCacheRefetch,
  isStorable,
} from "../src/middleware/edge-cache.ts";
import { publicRoute } from "../src/security/guard.ts";
import { Client, registerAccount } from "./support/auth.ts";
import { textOf } from "./support/body.ts";
import { send } from "./support/env.ts";
import { insertTrack, withDb } from "./support/factories.ts";

const anyone = () => new Client();

async function read(client: Client, path: string, headers: Record<string, string> = {}) {
  const response = await client.get(path, headers);
  const body = await textOf(response);
  return { response, body, cache: response.headers.get("x-edge-cache") };
}

describe("edge cache keys", () => {
  it("ignore the order of query parameters and the case of ids", () => {
    const id = "0195F3A4-8C1E-7D2A-9B3C-4D5E6F708192";
    expect(edgeCacheKey(`http://x.test/api/v1/artists/${id}/tracks?page=2&limit=5`)).toBe(
      edgeCacheKey(`http://x.test/api/v1/artists/${id.toLowerCase()}/tracks?limit=5&page=2`),
    );
    // Repeated parameters keep every value, in a fixed order.
    expect(edgeCacheKey("http://x.test/s?type=b&q=x&type=a")).toBe(
      "http://x.test/s?q=x&type=a&type=b",
    );
    // Anything but an id keeps its case: search terms and usernames are not ids.
    expect(edgeCacheKey("http://x.test/s?q=Abba")).not.toBe(edgeCacheKey("http://x.test/s?q=abba"));
  });

  it("store only whole successful answers with nothing of a caller in them", () => {
    expect(isStorable(new Response("{}"))).toBe(true);
    expect(isStorable(new Response("{}", { status: 404 }))).toBe(false);
    expect(isStorable(new Response("x", { status: 206 }))).toBe(false);
    expect(isStorable(new Response("{}", { headers: { "set-cookie": "a=b" } }))).toBe(false);
    expect(isStorable(new Response("{}", { headers: { "cache-control": "private" } }))).toBe(false);
    expect(isStorable(new Response("{}", { headers: { "cache-control": "no-store" } }))).toBe(
      false,
    );
  });
});

describe("anonymous public reads from the edge cache", () => {
  it("answer a stored copy (hit), with explicit cache headers, for any order of the query", async () => {
    const artist = await registerAccount("artist");
    await insertTrack(artist.id);
    const path = `/api/v1/artists/${artist.id}/tracks?page=1&limit=7`;
    const first = await read(anyone(), path);
    expect(first.response.status).toBe(200);
    expect(first.cache).toBe("miss");
    expect(first.response.headers.get("cache-control")).toBe(
      `public, max-age=0, s-maxage=${EDGE.catalogue.fresh}, stale-while-revalidate=${EDGE.catalogue.stale}`,
    );
    expect(first.response.headers.get("vary")).toContain("Cookie");

    const upper = `/api/v1/artists/${artist.id.toUpperCase()}/tracks?limit=7&page=1`;
    const second = await read(anyone(), upper);
    expect(second.cache).toBe("hit");
    expect(second.body).toBe(first.body);
    expect(Number(second.response.headers.get("age"))).toBeGreaterThanOrEqual(0);
    expect(second.response.headers.get("x-edge-stored-at")).toBeNull();
    // The stored copy gets its ETag and 304 like a fresh answer.
    const tag = second.response.headers.get("etag") ?? "";
    expect(tag).toMatch(/^"/);
    expect((await anyone().get(path, { "if-none-match": tag })).status).toBe(304);
  });

  it("stay within the stated bound for anonymous callers; the owner sees the write at once", async () => {
    const artist = await registerAccount("artist");
    const path = `/api/v1/artists/${artist.id}`;
    expect((await read(anyone(), path)).cache).toBe("miss");
    const update = await artist.client.put(path, { bio: "fresh bio" });
    expect(update.status).toBe(200);

    const own = await read(artist.client, path);
    expect(own.cache).toBe("bypass");
    expect(own.response.headers.get("cache-control")).toBe("private, no-cache");
    expect(JSON.parse(own.body)).toMatchObject({ bio: "fresh bio" });
    // An anonymous caller may still get the copy stored before the write, for at most the bound.
    const cached = await read(anyone(), path);
    expect(cached.cache).toBe("hit");
    expect(JSON.parse(cached.body)).not.toMatchObject({ bio: "fresh bio" });
  });

  it("never store what is not public yet: a private playlist, a track still converting", async () => {
    const owner = await registerAccount("user");
    const created = await owner.client.post("/api/v1/playlists", { title: "Soon public" });
    const { id } = (await created.json()) as { id: string };
    const playlist = `/api/v1/playlists/${id}`;
    expect((await read(anyone(), playlist)).response.status).toBe(404);
    expect((await owner.client.put(playlist, { isPublic: true })).status).toBe(200);
    const opened = await read(anyone(), playlist);
    expect([opened.response.status, opened.cache]).toEqual([200, "miss"]);

    const artist = await registerAccount("artist");
    const track = await insertTrack(artist.id, { processingStatus: "PROCESSING" });
    const path = `/api/v1/tracks/${track.id}`;
    // Its owner sees it (never stored); anyone else gets 404 (never stored either).
    expect((await read(artist.client, path)).cache).toBe("bypass");
    expect((await read(anyone(), path)).response.status).toBe(404);
    await withDb((db) =>
      db.update(tracks).set({ processingStatus: "READY" }).where(eq(tracks.id, track.id)),
    );
    const ready = await read(anyone(), path);
    expect([ready.response.status, ready.cache]).toEqual([200, "miss"]);
  });
});

describe("stale-while-revalidate", () => {
  /** A route whose copies are stale at once, answering how often it ran. */
  function countingApp() {
    let runs = 0;
    const app = new Hono<AppEnv>();
    app.use("*", edgeCacheRefetch(app));
    app.use("*", async (c, next) => {
      c.set("log", { warn: () => {} } as unknown as AppEnv["Variables"]["log"]);
      await next();
    });
    const route = edgeCached(publicRoute(), { fresh: 0, stale: 60 }, "test");
    app.get("/counted", ...route.middleware, (c) => c.json({ run: ++runs }));
    return { app, runs: () => runs };
  }

  it("answers the stale copy at once and stores a new one fetched in the background", async () => {
    const { app, runs } = countingApp();
    const url = `http://edge.test/counted?k=${crypto.randomUUID()}`;
    const first = await send(app, url);
    expect([first.headers.get("x-edge-cache"), await first.json()]).toEqual(["miss", { run: 1 }]);

    const second = await send(app, url);
    expect(second.headers.get("x-edge-cache")).toBe("stale");
    expect(await second.json()).toEqual({ run: 1 });
    expect(runs()).toBe(2);

    const third = await send(app, url);
    expect(await third.json()).toEqual({ run: 2 });
  });
});

describe("answers a route makes for one caller", () => {
  /** A media route (same for everyone) that answers privately when asked to, counting its runs. */
  function privateApp(policy: EdgePolicy) {
    let runs = 0;
    const app = new Hono<AppEnv>();
    const route = edgeCached(publicRoute(), policy, "test");
    app.get("/media", ...route.middleware, (c) => {
      runs++;
      if (c.req.header("x-owner")) c.header("cache-control", "private, no-store");
      return c.text("bytes");
    });
    return { app, runs: () => runs };
  }

  it.each([
    ["stored media", EDGE.media],
    ["media the edge never keeps", EDGE.progressive],
  ])("are never stored nor made public: %s", async (_name, policy) => {
    const { app, runs } = privateApp(policy);
    const url = `http://edge.test/media?k=${crypto.randomUUID()}`;
    for (let i = 1; i <= 2; i++) {
      const own = await send(app, url, { headers: { "x-owner": "1" } });
      expect(own.headers.get("cache-control")).toBe("private, no-store");
      expect(own.headers.get("x-edge-cache")).toBe("bypass");
      expect(runs()).toBe(i);
    }
    // Nothing stored: the next caller is a miss (or a bypass), never a hit of the private copy.
    const anyone = await send(app, url);
    expect(anyone.headers.get("x-edge-cache")).not.toBe("hit");
    expect(anyone.headers.get("cache-control")).toBe(policy.browser);
    expect(runs()).toBe(3);
  });
});
