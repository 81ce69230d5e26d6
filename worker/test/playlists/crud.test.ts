import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../support/auth.ts";
import { expectProblem } from "../support/problem.ts";
import { BASE, createPlaylist, expectJson, type Playlist } from "./support.ts";

const anyone = () => new Client();
const missingId = () => crypto.randomUUID();

describe("POST /playlists", () => {
  it("creates a private, empty playlist with defaults and a trimmed title", async () => {
    const owner = await registerAccount("user");
    const response = await owner.client.post(BASE, { title: "  Road trip  " });
    const playlist = await expectJson<Playlist>(response, 201);
    expect(playlist).toMatchObject({
      title: "Road trip",
      description: "",
      cover: null,
      isPublic: false,
      userId: owner.id,
      tracks: [],
      _count: { tracks: 0, likes: 0 },
    });
    expect(playlist.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(playlist.createdAt)).not.toBeNaN();
    expect(playlist.updatedAt).toBe(playlist.createdAt);
    const fetched = await expectJson<Playlist>(
      await owner.client.get(`${BASE}/${playlist.id}`),
      200,
    );
    // The read adds the signed-in listener's own relation (`viewer`), which writes do not answer.
    expect(fetched).toEqual({ ...playlist, viewer: { liked: false } });
  });

  it("takes description and isPublic, and titles of exactly 100 characters", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client, {
      title: "x".repeat(100),
      description: "d".repeat(1000),
      isPublic: true,
    });
    expect(playlist).toMatchObject({ isPublic: true, description: "d".repeat(1000) });
    expect(playlist.title).toHaveLength(100);
  });

  it.each([
    ["a missing title", {}, "json.title"],
    ["an empty title", { title: "" }, "json.title"],
    ["a title of spaces", { title: "   " }, "json.title"],
    ["a title of 101 characters", { title: "x".repeat(101) }, "json.title"],
    ["a title that is not a string", { title: 42 }, "json.title"],
    [
      "a description of 1001 characters",
      { title: "t", description: "d".repeat(1001) },
      "json.description",
    ],
    ["isPublic as a string", { title: "t", isPublic: "true" }, "json.isPublic"],
    ["isPublic as a number", { title: "t", isPublic: 1 }, "json.isPublic"],
  ])("400 for %s", async (_name, body, path) => {
    const owner = await registerAccount("user");
    const problem = await expectProblem(
      await owner.client.post(BASE, body),
      400,
      "VALIDATION_FAILED",
    );
    expect((problem.errors as Array<{ path: string }>).map((e) => e.path)).toContain(path);
  });

  it("400 for malformed JSON and 415 for a body that is not JSON", async () => {
    const owner = await registerAccount("user");
    const malformed = await owner.client.request("POST", BASE, undefined, {
      "content-type": "application/json",
    });
    expect(malformed.status).toBe(400);
    const text = await owner.client.request("POST", BASE, undefined, {
      "content-type": "text/plain",
    });
    await expectProblem(text, 415, "UNSUPPORTED_MEDIA_TYPE");
  });
});

describe("PUT /playlists/:id (JSON)", () => {
  it("changes only the fields sent and bumps updatedAt", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client, { title: "Old", description: "keep me" });
    const response = await owner.client.put(`${BASE}/${playlist.id}`, {
      title: " New ",
      isPublic: true,
    });
    const updated = await expectJson<Playlist>(response, 200);
    expect(updated).toMatchObject({ title: "New", description: "keep me", isPublic: true });
    expect(updated.createdAt).toBe(playlist.createdAt);
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(playlist.updatedAt));
    // Now public: visible to others.
    expect((await anyone().get(`${BASE}/${playlist.id}`)).status).toBe(200);
    const back = await owner.client.put(`${BASE}/${playlist.id}`, {
      isPublic: false,
      description: "",
    });
    expect(await expectJson<Playlist>(back, 200)).toMatchObject({
      isPublic: false,
      description: "",
    });
    // Private again: hidden at once from every signed-in caller (never answered from the edge
    // cache); an anonymous caller may get the edge's copy within its bound (edge-cache.test.ts).
    const other = await registerAccount("user");
    await expectProblem(await other.client.get(`${BASE}/${playlist.id}`), 404, "NOT_FOUND");
  });

  it.each([
    ["no field", {}],
    ["an empty title", { title: "" }],
    ["a title of 101 characters", { title: "x".repeat(101) }],
    ["a description of 1001 characters", { description: "d".repeat(1001) }],
    ["isPublic that is not a boolean", { isPublic: "yes" }],
  ])("400 for %s", async (_name, body) => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    await expectProblem(
      await owner.client.put(`${BASE}/${playlist.id}`, body),
      400,
      "VALIDATION_FAILED",
    );
  });

  it("400 without a body at all", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    await expectProblem(await owner.client.put(`${BASE}/${playlist.id}`), 400, "VALIDATION_FAILED");
  });

  it("403 for another user, public or private, and nothing changes", async () => {
    const owner = await registerAccount("user");
    const stranger = await registerAccount("user");
    for (const isPublic of [true, false]) {
      const playlist = await createPlaylist(owner.client, { title: "Mine", isPublic });
      await expectProblem(
        await stranger.client.put(`${BASE}/${playlist.id}`, { title: "Theirs" }),
        403,
        "FORBIDDEN",
      );
      const seen = await expectJson<Playlist>(
        await owner.client.get(`${BASE}/${playlist.id}`),
        200,
      );
      expect(seen.title).toBe("Mine");
    }
  });

  it("404 for an unknown playlist, 400 for a bad id", async () => {
    const owner = await registerAccount("user");
    await expectProblem(
      await owner.client.put(`${BASE}/${missingId()}`, { title: "x" }),
      404,
      "NOT_FOUND",
    );
    await expectProblem(
      await owner.client.put(`${BASE}/123`, { title: "x" }),
      400,
      "VALIDATION_FAILED",
    );
  });
});

describe("DELETE /playlists/:id", () => {
  it("deletes the owner's playlist: 204, then 404", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client, { isPublic: true });
    const response = await owner.client.delete(`${BASE}/${playlist.id}`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    await expectProblem(await owner.client.get(`${BASE}/${playlist.id}`), 404, "NOT_FOUND");
    await expectProblem(await owner.client.delete(`${BASE}/${playlist.id}`), 404, "NOT_FOUND");
  });

  it("403 for another user (also for a private playlist); 400 for a bad id", async () => {
    const owner = await registerAccount("user");
    const stranger = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    await expectProblem(await stranger.client.delete(`${BASE}/${playlist.id}`), 403, "FORBIDDEN");
    expect((await owner.client.get(`${BASE}/${playlist.id}`)).status).toBe(200);
    await expectProblem(await owner.client.delete(`${BASE}/nope`), 400, "VALIDATION_FAILED");
  });
});
