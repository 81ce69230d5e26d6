import { describe, expect, it } from "vitest";
import { IMAGE_MAX_BYTES } from "../../src/images/images.ts";
import { Client, registerAccount } from "../support/auth.ts";
import { IMAGE_BYTES, insertTrack } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";
import { createAlbum, fetchMedia, form, json, png } from "../tracks/catalogue/support.ts";

async function ownAlbum(body: Record<string, unknown> = {}) {
  const owner = await registerAccount("artist");
  const album = await createAlbum(owner.client, body);
  return { owner, album, path: `/api/v1/albums/${album.id}` };
}

describe("PUT /api/v1/albums/:id with JSON", () => {
  it("changes the title and the release date, and null removes the date", async () => {
    const { owner, path } = await ownAlbum({ releasedAt: "2020-01-01" });
    const renamed = await owner.client.put(path, { title: " Second ", releasedAt: "2021-12-31" });
    expect(renamed.status).toBe(200);
    expect(await json(renamed)).toMatchObject({ title: "Second", releasedAt: "2021-12-31" });
    expect(await json(await owner.client.put(path, { releasedAt: null }))).toMatchObject({
      title: "Second",
      releasedAt: null,
    });
  });

  it.each([
    [{ title: "" }, "json.title"],
    [{ title: "z".repeat(201) }, "json.title"],
    [{ releasedAt: "2024-02-30" }, "json.releasedAt"],
    [{ releasedAt: "2024/01/01" }, "json.releasedAt"],
    [{}, "body"],
  ])("400 for %j", async (body, path) => {
    const { owner, path: url } = await ownAlbum();
    const problem = await expectProblem(
      await owner.client.put(url, body),
      400,
      "VALIDATION_FAILED",
    );
    expect(problem.errors).toEqual([expect.objectContaining({ path })]);
  });

  it("403 for another artist's album, 404 for an unknown one", async () => {
    const { path, owner } = await ownAlbum();
    const stranger = await registerAccount("artist");
    await expectProblem(await stranger.client.put(path, { title: "Mine" }), 403, "FORBIDDEN");
    expect(await json(await owner.client.get(path))).not.toMatchObject({ title: "Mine" });
    await expectProblem(
      await stranger.client.put(`/api/v1/albums/${crypto.randomUUID()}`, { title: "x" }),
      404,
      "NOT_FOUND",
    );
  });
});

describe("PUT /api/v1/albums/:id with multipart", () => {
  it("stores a cover served under /static/covers, and deletes the one it replaces", async () => {
    const { owner, path } = await ownAlbum();
    const first = await owner.client.form("PUT", path, form({ cover: [png(), "a.png"] }));
    expect(first.status).toBe(200);
    const { cover } = await json<{ cover: string }>(first);
    expect(cover).toMatch(/^\/static\/covers\/[0-9a-f-]{36}\.png$/);
    const served = await fetchMedia(new Client(), cover);
    expect(served).toMatchObject({ status: 200, contentType: "image/png" });
    expect(served.bytes).toEqual(png());

    const webp = new Uint8Array(IMAGE_BYTES.webp);
    const second = await owner.client.form("PUT", path, form({ cover: [webp, "b.webp"] }));
    const replaced = (await json<{ cover: string }>(second)).cover;
    expect(await fetchMedia(new Client(), replaced)).toMatchObject({
      status: 200,
      contentType: "image/webp",
    });
    expect((await fetchMedia(new Client(), cover)).status).toBe(404);
  });

  it("takes the text fields, an empty releasedAt removing the date", async () => {
    const { owner, path } = await ownAlbum({ releasedAt: "2020-05-05" });
    const response = await owner.client.form("PUT", path, form({ title: "Form", releasedAt: "" }));
    expect(await json(response)).toMatchObject({ title: "Form", releasedAt: null, cover: null });
  });

  it("415 for a file that is not an image, 413 for an image over 5 MB", async () => {
    const { owner, path } = await ownAlbum();
    const gif = new TextEncoder().encode("GIF89a not accepted");
    await expectProblem(
      await owner.client.form("PUT", path, form({ cover: [gif, "x.gif"] })),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    await expectProblem(
      await owner.client.form("PUT", path, form({ cover: [png(IMAGE_MAX_BYTES + 1), "b.png"] })),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    expect(await json(await owner.client.get(path))).toMatchObject({ cover: null });
  });

  it("400 for a bad date in a form", async () => {
    const { owner, path } = await ownAlbum();
    const problem = await expectProblem(
      await owner.client.form("PUT", path, form({ releasedAt: "2023-02-29" })),
      400,
      "VALIDATION_FAILED",
    );
    expect(problem.errors).toEqual([expect.objectContaining({ path: "form.releasedAt" })]);
  });
});

describe("DELETE /api/v1/albums/:id", () => {
  it("deletes the album and its cover, and keeps its tracks as singles", async () => {
    const { owner, album, path } = await ownAlbum();
    const { cover } = await json<{ cover: string }>(
      await owner.client.form("PUT", path, form({ cover: [png(), "a.png"] })),
    );
    const track = await insertTrack(owner.id, { albumId: album.id });

    expect((await owner.client.delete(path)).status).toBe(204);

    await expectProblem(await owner.client.get(path), 404, "NOT_FOUND");
    expect((await fetchMedia(owner.client, cover)).status).toBe(404);
    expect(await json(await new Client().get(`/api/v1/tracks/${track.id}`))).toMatchObject({
      id: track.id,
      albumId: null,
    });
  });

  it("403 for another artist's album, which stays", async () => {
    const { owner, path } = await ownAlbum();
    const stranger = await registerAccount("artist");
    await expectProblem(await stranger.client.delete(path), 403, "FORBIDDEN");
    expect((await owner.client.get(path)).status).toBe(200);
  });

  it("404 for an unknown album, 400 for an id that is not a UUID", async () => {
    const owner = await registerAccount("artist");
    await expectProblem(
      await owner.client.delete(`/api/v1/albums/${crypto.randomUUID()}`),
      404,
      "NOT_FOUND",
    );
    await expectProblem(await owner.client.delete("/api/v1/albums/x"), 400, "VALIDATION_FAILED");
  });
});
