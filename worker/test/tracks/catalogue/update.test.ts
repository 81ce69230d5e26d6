import { describe, expect, it } from "vitest";
import { IMAGE_MAX_BYTES } from "../../../src/images/images.ts";
import { app, registerAccount } from "../../support/auth.ts";
import { send } from "../../support/env.ts";
import { IMAGE_BYTES, insertTrack } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";
import { createAlbum, fetchMedia, form, json, png } from "./support.ts";

async function ownTrack(values: Parameters<typeof insertTrack>[1] = {}) {
  const owner = await registerAccount("artist");
  const track = await insertTrack(owner.id, values);
  return { owner, track, path: `/api/v1/tracks/${track.id}` };
}

describe("PUT /api/v1/tracks/:id with JSON", () => {
  it("renames the track (trimmed) and answers the owner's view", async () => {
    const { owner, track, path } = await ownTrack({ processingStatus: "PROCESSING" });
    const response = await owner.client.put(path, { title: "  New name  " });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({
      id: track.id,
      title: "New name",
      processingStatus: "PROCESSING",
    });
    expect(await json(await owner.client.get(path))).toMatchObject({ title: "New name" });
  });

  it("moves the track into an own album and back to a single", async () => {
    const { owner, path } = await ownTrack();
    const album = await createAlbum(owner.client);
    expect(await json(await owner.client.put(path, { albumId: album.id }))).toMatchObject({
      albumId: album.id,
    });
    expect(await json(await owner.client.put(path, { albumId: null }))).toMatchObject({
      albumId: null,
    });
  });

  it("404 for another artist's album or an unknown one, and changes nothing", async () => {
    const { owner, path } = await ownTrack();
    const stranger = await registerAccount("artist");
    const theirs = await createAlbum(stranger.client);
    for (const albumId of [theirs.id, crypto.randomUUID()]) {
      await expectProblem(
        await owner.client.put(path, { albumId, title: "Changed" }),
        404,
        "NOT_FOUND",
      );
    }
    expect(await json(await owner.client.get(path))).toMatchObject({ albumId: null });
    expect(await json(await owner.client.get(path))).not.toMatchObject({ title: "Changed" });
  });

  it.each([
    [{ title: "" }, "json.title"],
    [{ title: "   " }, "json.title"],
    [{ title: "x".repeat(201) }, "json.title"],
    [{ title: 7 }, "json.title"],
    [{ albumId: "not-a-uuid" }, "json.albumId"],
    [{}, "body"],
    [{ unknown: "field" }, "body"],
  ])("400 for %j", async (body, path) => {
    const { owner, path: url } = await ownTrack();
    const problem = await expectProblem(
      await owner.client.put(url, body),
      400,
      "VALIDATION_FAILED",
    );
    expect(problem.errors).toEqual([expect.objectContaining({ path })]);
  });

  it("accepts a title of exactly 200 characters", async () => {
    const { owner, path } = await ownTrack();
    const title = "x".repeat(200);
    expect(await json(await owner.client.put(path, { title }))).toMatchObject({ title });
  });

  it("400 for an empty body, 415 for a body that is neither JSON nor multipart", async () => {
    const { owner, path } = await ownTrack();
    await expectProblem(await owner.client.request("PUT", path), 400, "VALIDATION_FAILED");
    const text = await owner.client.request("PUT", path, "title=x", {
      "content-type": "text/plain",
    });
    await expectProblem(text, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("400 for malformed JSON", async () => {
    const { owner, path } = await ownTrack();
    const response = await send(app, path, {
      method: "PUT",
      body: '{"title": ',
      headers: { "content-type": "application/json", cookie: owner.client.jar.header(path) },
    });
    await expectProblem(response, 400, "MALFORMED_REQUEST");
  });

  it("403 for another artist's track, 404 for an unknown one", async () => {
    const { path } = await ownTrack();
    const stranger = await registerAccount("artist");
    await expectProblem(await stranger.client.put(path, { title: "Mine" }), 403, "FORBIDDEN");
    await expectProblem(
      await stranger.client.put(`/api/v1/tracks/${crypto.randomUUID()}`, { title: "x" }),
      404,
      "NOT_FOUND",
    );
  });
});

describe("PUT /api/v1/tracks/:id with multipart", () => {
  it("stores a cover served under /static/covers, and deletes the one it replaces", async () => {
    const { owner, path } = await ownTrack();
    const first = await owner.client.form("PUT", path, form({ cover: [png(), "a.png"] }));
    expect(first.status).toBe(200);
    const { cover } = await json<{ cover: string }>(first);
    expect(cover).toMatch(/^\/static\/covers\/[0-9a-f-]{36}\.png$/);
    const served = await fetchMedia(owner.client, cover);
    expect(served).toMatchObject({ status: 200, contentType: "image/png" });
    expect(served.bytes).toEqual(png());

    const jpg = new Uint8Array(IMAGE_BYTES.jpg);
    const second = await owner.client.form("PUT", path, form({ cover: [jpg, "b.jpg"] }));
    const replaced = (await json<{ cover: string }>(second)).cover;
    expect(replaced).toMatch(/\.jpg$/);
    expect(await fetchMedia(owner.client, replaced)).toMatchObject({
      status: 200,
      contentType: "image/jpeg",
    });
    expect((await fetchMedia(owner.client, cover)).status).toBe(404);
  });

  it("takes the text fields, an empty albumId making the track a single", async () => {
    const { owner, path } = await ownTrack();
    const album = await createAlbum(owner.client);
    await owner.client.put(path, { albumId: album.id });
    const response = await owner.client.form("PUT", path, form({ title: " Form ", albumId: "" }));
    expect(await json(response)).toMatchObject({ title: "Form", albumId: null, cover: null });
  });

  it("415 for a file that is not an image, and the cover stays", async () => {
    const { owner, path } = await ownTrack();
    const text = new TextEncoder().encode("just some text, not an image");
    const response = await owner.client.form("PUT", path, form({ cover: [text, "x.png"] }));
    await expectProblem(response, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(await json(await owner.client.get(path))).toMatchObject({ cover: null });
  });

  it("413 for an image over 5 MB", async () => {
    const { owner, path } = await ownTrack();
    const big = png(IMAGE_MAX_BYTES + 1);
    const response = await owner.client.form("PUT", path, form({ cover: [big, "big.png"] }));
    await expectProblem(response, 413, "PAYLOAD_TOO_LARGE");
  });

  it("413 for a body far over the limit", async () => {
    const { owner, path } = await ownTrack();
    const huge = png(8 * 1024 * 1024);
    const response = await owner.client.form("PUT", path, form({ cover: [huge, "huge.png"] }));
    await expectProblem(response, 413, "PAYLOAD_TOO_LARGE");
  });

  it("400 when cover is not a file, or a text field is invalid", async () => {
    const { owner, path } = await ownTrack();
    await expectProblem(
      await owner.client.form("PUT", path, form({ cover: "text" })),
      400,
      "VALIDATION_FAILED",
    );
    const problem = await expectProblem(
      await owner.client.form("PUT", path, form({ title: "", albumId: "nope" })),
      400,
      "VALIDATION_FAILED",
    );
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "form.title" }),
        expect.objectContaining({ path: "form.albumId" }),
      ]),
    );
  });

  it("403 for another artist's track, which keeps its cover", async () => {
    const { owner, path } = await ownTrack();
    const { cover } = await json<{ cover: string }>(
      await owner.client.form("PUT", path, form({ cover: [png(), "a.png"] })),
    );
    const stranger = await registerAccount("artist");
    const response = await stranger.client.form("PUT", path, form({ cover: [png(), "b.png"] }));
    await expectProblem(response, 403, "FORBIDDEN");
    expect(await json(await owner.client.get(path))).toMatchObject({ cover });
    expect((await fetchMedia(owner.client, cover)).status).toBe(200);
  });
});
