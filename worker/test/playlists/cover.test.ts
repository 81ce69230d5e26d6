import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../support/auth.ts";
import { IMAGE_BYTES } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";
import { BASE, createPlaylist, expectJson, form, type Playlist } from "./support.ts";

const anyone = () => new Client();

describe("PUT /playlists/:id (multipart)", () => {
  it("stores a PNG cover, serves it, and deletes it when replaced", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client, { title: "Before" });
    const first = await expectJson<Playlist>(
      await owner.client.form(
        "PUT",
        `${BASE}/${playlist.id}`,
        form({ cover: [IMAGE_BYTES.png, "cover.jpg"], title: " After ", isPublic: "true" }),
      ),
      200,
    );
    expect(first).toMatchObject({ title: "After", isPublic: true, description: "" });
    expect(first.cover).toMatch(/^\/static\/covers\/[0-9a-f-]{36}\.png$/);
    const served = await anyone().get(first.cover ?? "");
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(IMAGE_BYTES.png);

    const second = await expectJson<Playlist>(
      await owner.client.form(
        "PUT",
        `${BASE}/${playlist.id}`,
        form({ cover: [IMAGE_BYTES.webp, "new.png"] }),
      ),
      200,
    );
    expect(second.cover).toMatch(/\.webp$/);
    expect(second.title).toBe("After");
    await expectProblem(await anyone().get(first.cover ?? ""), 404, "NOT_FOUND");
    expect((await anyone().get(second.cover ?? "")).status).toBe(200);

    // Text fields alone keep the cover.
    const third = await expectJson<Playlist>(
      await owner.client.form("PUT", `${BASE}/${playlist.id}`, form({ isPublic: "false" })),
      200,
    );
    expect(third).toMatchObject({ isPublic: false, cover: second.cover });
  });

  it("deleting the playlist deletes its cover", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const updated = await expectJson<Playlist>(
      await owner.client.form(
        "PUT",
        `${BASE}/${playlist.id}`,
        form({ cover: [IMAGE_BYTES.jpg, "c"] }),
      ),
      200,
    );
    expect(updated.cover).toMatch(/\.jpg$/);
    expect((await owner.client.delete(`${BASE}/${playlist.id}`)).status).toBe(204);
    await expectProblem(await anyone().get(updated.cover ?? ""), 404, "NOT_FOUND");
  });

  it("415 for a text file named .png, 413 above 5 MB, 400 for a cover that is not a file", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const put = (data: FormData) => owner.client.form("PUT", `${BASE}/${playlist.id}`, data);
    const text = new TextEncoder().encode("not really a picture");
    await expectProblem(
      await put(form({ cover: [text, "cat.png"] })),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    const huge = new Uint8Array(5 * 1024 * 1024 + 1);
    huge.set(IMAGE_BYTES.png);
    await expectProblem(await put(form({ cover: [huge, "big.png"] })), 413, "PAYLOAD_TOO_LARGE");
    // Beyond the route's body limit (6 MB), before anything is parsed.
    const bigger = new Uint8Array(7 * 1024 * 1024);
    bigger.set(IMAGE_BYTES.png);
    await expectProblem(await put(form({ cover: [bigger, "big.png"] })), 413, "PAYLOAD_TOO_LARGE");
    await expectProblem(await put(form({ cover: "just text" })), 400, "VALIDATION_FAILED");
    await expectProblem(
      await put(form({ cover: [new Uint8Array(), "empty.png"] })),
      400,
      "VALIDATION_FAILED",
    );
    const seen = await expectJson<Playlist>(await owner.client.get(`${BASE}/${playlist.id}`), 200);
    expect(seen.cover).toBeNull();
  });

  it.each([
    ["no field", {}, "form"],
    ["isPublic that is not true/false", { isPublic: "yes" }, "form.isPublic"],
    ["an empty title", { title: "" }, "form.title"],
    ["a title of 101 characters", { title: "x".repeat(101) }, "form.title"],
    ["a description of 1001 characters", { description: "d".repeat(1001) }, "form.description"],
  ])("400 for %s", async (_name, fields, path) => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const problem = await expectProblem(
      await owner.client.form("PUT", `${BASE}/${playlist.id}`, form(fields)),
      400,
      "VALIDATION_FAILED",
    );
    expect((problem.errors as Array<{ path: string }>).map((e) => e.path)).toContain(path);
  });

  it("403 for another user's playlist, and its cover stays as it was", async () => {
    const owner = await registerAccount("user");
    const stranger = await registerAccount("user");
    const playlist = await createPlaylist(owner.client, { isPublic: true });
    await expectProblem(
      await stranger.client.form(
        "PUT",
        `${BASE}/${playlist.id}`,
        form({ cover: [IMAGE_BYTES.png, "x.png"] }),
      ),
      403,
      "FORBIDDEN",
    );
    const seen = await expectJson<Playlist>(await owner.client.get(`${BASE}/${playlist.id}`), 200);
    expect(seen.cover).toBeNull();
  });

  it("415 for a body that is neither JSON nor multipart", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const response = await owner.client.request("PUT", `${BASE}/${playlist.id}`, undefined, {
      "content-type": "text/plain",
    });
    await expectProblem(response, 415, "UNSUPPORTED_MEDIA_TYPE");
  });
});
