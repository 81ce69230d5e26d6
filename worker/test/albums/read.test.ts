import { describe, expect, it } from "vitest";
import { Client } from "../support/auth.ts";
import { insertAlbum, insertArtist, insertTrack } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";
import { ids, json } from "../tracks/catalogue/support.ts";

async function discography(count: number) {
  const artist = await insertArtist();
  const albums = [];
  for (let i = 0; i < count; i++) albums.push(await insertAlbum(artist.id, `Album ${i}`));
  return { artist, albums };
}

describe("GET /api/v1/albums/:id", () => {
  it("answers the album with its READY tracks, oldest first", async () => {
    const artist = await insertArtist();
    const album = await insertAlbum(artist.id);
    const first = await insertTrack(artist.id, { albumId: album.id, title: "Side A" });
    await insertTrack(artist.id, { albumId: album.id, processingStatus: "PROCESSING" });
    await insertTrack(artist.id, { albumId: album.id, processingStatus: "FAILED" });
    const second = await insertTrack(artist.id, { albumId: album.id, title: "Side B" });
    await insertTrack(artist.id);

    const response = await new Client().get(`/api/v1/albums/${album.id}`);
    expect(response.status).toBe(200);
    const body = await json<{ tracks: Array<{ id: string }> }>(response);
    expect(body).toMatchObject({
      id: album.id,
      title: album.title,
      artistId: artist.id,
      artist: { id: artist.id, username: artist.username },
      releasedAt: null,
    });
    expect(ids(body.tracks)).toEqual([first.id, second.id]);
    expect(body.tracks[0]).toMatchObject({ title: "Side A", albumId: album.id });
    expect(body.tracks[0]).not.toHaveProperty("processingStatus");
  });

  it("404 for an unknown album, 400 for an id that is not a UUID", async () => {
    const client = new Client();
    await expectProblem(
      await client.get(`/api/v1/albums/${crypto.randomUUID()}`),
      404,
      "NOT_FOUND",
    );
    await expectProblem(await client.get("/api/v1/albums/1"), 400, "VALIDATION_FAILED");
  });
});

describe("GET /api/v1/albums", () => {
  it("lists albums newest first without their tracks, paginated, filtered by artist", async () => {
    const { artist, albums } = await discography(3);
    await insertAlbum((await insertArtist()).id);
    const page = async (query: string) =>
      await json<Array<Record<string, unknown>>>(
        await new Client().get(`/api/v1/albums?artistId=${artist.id}&${query}`),
      );
    const all = await page("");
    expect(ids(all as Array<{ id: string }>)).toEqual(ids(albums).reverse());
    expect(all[0]).not.toHaveProperty("tracks");
    expect(all[0]).toMatchObject({ title: "Album 2", artist: { id: artist.id } });
    expect(ids((await page("limit=2&page=2")) as Array<{ id: string }>)).toEqual([albums[0]?.id]);
  });

  it("answers an empty page for an unknown artist", async () => {
    const response = await new Client().get(`/api/v1/albums?artistId=${crypto.randomUUID()}`);
    expect(await json(response)).toEqual([]);
  });

  it.each([
    ["artistId=bad", "query.artistId"],
    ["page=0", "query.page"],
    ["limit=1000", "query.limit"],
  ])("400 for %s", async (query, path) => {
    const problem = await expectProblem(
      await new Client().get(`/api/v1/albums?${query}`),
      400,
      "VALIDATION_FAILED",
    );
    expect(problem.errors).toEqual([expect.objectContaining({ path })]);
  });
});

describe("GET /api/v1/artists/:id/albums", () => {
  it("lists the artist's albums newest first, paginated", async () => {
    const { artist, albums } = await discography(3);
    const base = `/api/v1/artists/${artist.id}/albums`;
    expect(ids(await json(await new Client().get(base)))).toEqual(ids(albums).reverse());
    expect(ids(await json(await new Client().get(`${base}?limit=1&page=2`)))).toEqual([
      albums[1]?.id,
    ]);
  });

  it("404 for an unknown artist, 400 for bad input", async () => {
    const client = new Client();
    await expectProblem(
      await client.get(`/api/v1/artists/${crypto.randomUUID()}/albums`),
      404,
      "NOT_FOUND",
    );
    await expectProblem(await client.get("/api/v1/artists/me/albums"), 400, "VALIDATION_FAILED");
    const artist = await insertArtist();
    await expectProblem(
      await client.get(`/api/v1/artists/${artist.id}/albums?limit=0`),
      400,
      "VALIDATION_FAILED",
    );
  });
});
