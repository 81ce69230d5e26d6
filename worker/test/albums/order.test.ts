import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../support/auth.ts";
import { insertAlbum, insertTrack } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";

interface AlbumTrack {
  id: string;
  albumPosition: number | null;
  album: { id: string; title: string } | null;
}
interface Album {
  id: string;
  description: string;
  tracks: AlbumTrack[];
}

const orderPath = (id: string) => `/api/v1/albums/${id}/tracks/order`;

async function albumWithTracks(count: number) {
  const artist = await registerAccount("artist");
  const album = await insertAlbum(artist.id);
  const tracks = [];
  for (let i = 0; i < count; i++) tracks.push(await insertTrack(artist.id, { albumId: album.id }));
  return { artist, album, ids: tracks.map((track) => track.id) };
}

async function read(id: string): Promise<Album> {
  const response = await new Client().get(`/api/v1/albums/${id}`, { "cache-control": "no-cache" });
  expect(response.status).toBe(200);
  return (await response.json()) as Album;
}

describe("an album's track order", () => {
  it("starts in upload order, numbered, each track naming its album", async () => {
    const { album, ids } = await albumWithTracks(3);
    const read1 = await read(album.id);
    expect(read1.tracks.map((t) => t.id)).toEqual(ids);
    expect(read1.tracks.map((t) => t.albumPosition)).toEqual([1, 2, 3]);
    expect(read1.tracks[0]?.album).toEqual({ id: album.id, title: album.title });
    expect(read1.description).toBe("");
  });

  it("is the artist's to change, and a track joining later goes last", async () => {
    const { artist, album, ids } = await albumWithTracks(3);
    const [a, b, c] = ids;
    const response = await artist.client.put(orderPath(album.id), { trackIds: [c, a, b] });
    expect(response.status).toBe(200);
    const answered = (await response.json()) as Album;
    expect(answered.tracks.map((t) => t.id)).toEqual([c, a, b]);
    expect(answered.tracks.map((t) => t.albumPosition)).toEqual([1, 2, 3]);
    const late = await insertTrack(artist.id, { albumId: album.id });
    const single = await insertTrack(artist.id);
    expect(single.albumPosition).toBeNull();
    expect(late.albumPosition).toBe(4);
    // Moving a single into the album through the API puts it last too.
    const moved = await artist.client.put(`/api/v1/tracks/${single.id}`, { albumId: album.id });
    expect(((await moved.json()) as AlbumTrack).albumPosition).toBe(5);
  });

  it("refuses a list that is not the album's tracks, each once, and changes nothing", async () => {
    const { artist, album, ids } = await albumWithTracks(3);
    const other = await insertTrack(artist.id);
    const [a, b, c] = ids as [string, string, string];
    const bad = [
      { trackIds: [a, b] },
      { trackIds: [a, b, c, other.id] },
      { trackIds: [a, b, other.id] },
      { trackIds: [a, a, b] },
      { trackIds: [] },
      { trackIds: ["x"] },
      {},
    ];
    for (const body of bad) {
      await expectProblem(
        await artist.client.put(orderPath(album.id), body),
        400,
        "VALIDATION_FAILED",
      );
    }
    expect((await read(album.id)).tracks.map((t) => t.id)).toEqual(ids);
  });

  it("is the owner's: 403 for another artist, 404 for no album, 401 signed out", async () => {
    const { album, ids } = await albumWithTracks(2);
    const stranger = await registerAccount("artist");
    const body = { trackIds: [...ids].reverse() };
    await expectProblem(await stranger.client.put(orderPath(album.id), body), 403, "FORBIDDEN");
    await expectProblem(
      await stranger.client.put(orderPath(crypto.randomUUID()), body),
      404,
      "NOT_FOUND",
    );
    await expectProblem(await new Client().put(orderPath(album.id), body), 401, "UNAUTHORIZED");
    expect((await read(album.id)).tracks.map((t) => t.id)).toEqual(ids);
  });

  it("keeps the artist's words about the album", async () => {
    const { artist, album } = await albumWithTracks(0);
    const words = "Recorded in one night by the harbour.";
    const response = await artist.client.put(`/api/v1/albums/${album.id}`, { description: words });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Album).description).toBe(words);
    await expectProblem(
      await artist.client.put(`/api/v1/albums/${album.id}`, { description: "x".repeat(2001) }),
      400,
      "VALIDATION_FAILED",
    );
  });
});
