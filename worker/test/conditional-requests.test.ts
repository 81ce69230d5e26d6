import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "./support/auth.ts";
import { textOf } from "./support/body.ts";

/** ETag and If-None-Match on the JSON GETs (media have their own, see tracks/streaming). */
describe("conditional GETs", () => {
  it("answers an ETag, and 304 without a body for a matching If-None-Match", async () => {
    const artist = await registerAccount("artist");
    const path = `/api/v1/artists/${artist.id}`;
    const first = await new Client().get(path);
    expect(first.status).toBe(200);
    const tag = first.headers.get("etag");
    expect(tag).toMatch(/^"[^"]+"$/);
    await first.arrayBuffer();

    const again = await new Client().get(path, { "if-none-match": tag ?? "" });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(tag);
    expect(await textOf(again)).toBe("");

    const other = await new Client().get(path, { "if-none-match": '"something-else"' });
    expect(other.status).toBe(200);
    await other.arrayBuffer();
  });

  it("gives a changed body a new ETag", async () => {
    const artist = await registerAccount("artist");
    const path = `/api/v1/artists/${artist.id}`;
    // Signed in, so never answered from the edge cache (that is edge-cache.test.ts).
    const reader = (await registerAccount("user")).client;
    const before = (await reader.get(path)).headers.get("etag");
    const update = await artist.client.put(path, { bio: "now with a bio" });
    expect(update.status).toBe(200);
    const after = await reader.get(path, { "if-none-match": before ?? "" });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(before);
    await after.arrayBuffer();
  });

  it("tags a signed-in GET by its own body, and no error or write", async () => {
    const user = await registerAccount("user");
    const me = await user.client.get("/api/v1/users/me");
    const tag = me.headers.get("etag");
    expect(tag).toBeTruthy();
    await me.arrayBuffer();
    expect((await user.client.get("/api/v1/users/me", { "if-none-match": tag ?? "" })).status).toBe(
      304,
    );

    const missing = await new Client().get(`/api/v1/artists/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("etag")).toBeNull();
    await missing.arrayBuffer();

    const created = await user.client.post("/api/v1/playlists", { title: "Tagged?" });
    expect(created.status).toBe(201);
    expect(created.headers.get("etag")).toBeNull();
    await created.arrayBuffer();
  });
});
