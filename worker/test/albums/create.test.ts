import { describe, expect, it } from "vitest";
import { app, registerAccount } from "../support/auth.ts";
import { send } from "../support/env.ts";
import { expectProblem } from "../support/problem.ts";
import { json } from "../tracks/catalogue/support.ts";

const ALBUMS = "/api/v1/albums";

describe("POST /api/v1/albums", () => {
  it("creates an album of the caller, without cover or tracks", async () => {
    const artist = await registerAccount("artist");
    const response = await artist.client.post(ALBUMS, {
      title: "  Night Drive ",
      releasedAt: "2024-02-29",
    });
    expect(response.status).toBe(201);
    const album = await json(response);
    expect(Object.keys(album).sort()).toEqual(
      [
        "artist",
        "artistId",
        "cover",
        "createdAt",
        "description",
        "id",
        "releasedAt",
        "title",
        "tracks",
        "visibility",
      ].sort(),
    );
    expect(album).toMatchObject({
      title: "Night Drive",
      releasedAt: "2024-02-29",
      cover: null,
      artistId: artist.id,
      artist: { id: artist.id, username: artist.username, avatar: null },
      tracks: [],
    });
    expect(await json(await artist.client.get(`${ALBUMS}/${album.id}`))).toEqual(album);
  });

  it("takes no release date, or null, as none", async () => {
    const artist = await registerAccount("artist");
    for (const body of [{ title: "A" }, { title: "B", releasedAt: null }]) {
      expect(await json(await artist.client.post(ALBUMS, body))).toMatchObject({
        releasedAt: null,
      });
    }
  });

  it("accepts far dates that exist: year 1, year 9999, the future", async () => {
    const artist = await registerAccount("artist");
    for (const releasedAt of ["0001-01-01", "9999-12-31", "2099-06-15"]) {
      const response = await artist.client.post(ALBUMS, { title: "Dated", releasedAt });
      expect(await json(response)).toMatchObject({ releasedAt });
    }
  });

  it.each([
    [{ title: "" }, "json.title"],
    [{ title: "  " }, "json.title"],
    [{ title: "x".repeat(201) }, "json.title"],
    [{}, "json.title"],
    [{ title: ["a"] }, "json.title"],
    [{ title: "A", releasedAt: "2024-02-30" }, "json.releasedAt"],
    [{ title: "A", releasedAt: "2023-02-29" }, "json.releasedAt"],
    [{ title: "A", releasedAt: "2024-13-01" }, "json.releasedAt"],
    [{ title: "A", releasedAt: "2024-04-31" }, "json.releasedAt"],
    [{ title: "A", releasedAt: "0000-01-01" }, "json.releasedAt"],
    [{ title: "A", releasedAt: "2024-1-5" }, "json.releasedAt"],
    [{ title: "A", releasedAt: "2024-01-01T00:00:00Z" }, "json.releasedAt"],
    [{ title: "A", releasedAt: "tomorrow" }, "json.releasedAt"],
    [{ title: "A", releasedAt: 20240101 }, "json.releasedAt"],
  ])("400 for %j", async (body, path) => {
    const artist = await registerAccount("artist");
    const problem = await expectProblem(
      await artist.client.post(ALBUMS, body),
      400,
      "VALIDATION_FAILED",
    );
    expect(problem.errors).toEqual([expect.objectContaining({ path })]);
  });

  it("accepts a title of exactly 200 characters", async () => {
    const artist = await registerAccount("artist");
    const title = "y".repeat(200);
    expect(await json(await artist.client.post(ALBUMS, { title }))).toMatchObject({ title });
  });

  it("400 for malformed JSON", async () => {
    const artist = await registerAccount("artist");
    const response = await send(app, ALBUMS, {
      method: "POST",
      body: "{",
      headers: { "content-type": "application/json", cookie: artist.client.jar.header(ALBUMS) },
    });
    await expectProblem(response, 400, "MALFORMED_REQUEST");
  });
});
