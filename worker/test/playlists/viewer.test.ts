import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../support/auth.ts";
import { BASE, createPlaylist, expectJson, type Playlist } from "./support.ts";

/**
 * The signed-in listener's own relation to a playlist on GET /playlists/:id (`viewer.liked`):
 * present for a user only, never for anyone else, never shared through the edge cache.
 */
const anyone = () => new Client();

type Read = Playlist & { viewer?: { liked: boolean } };

async function read(client: Client, id: string) {
  const response = await client.get(`${BASE}/${id}`);
  const body = await expectJson<Read>(response, 200);
  return { body, cache: response.headers.get("x-edge-cache") };
}

async function publicPlaylist() {
  const owner = await registerAccount("user");
  return { owner, playlist: await createPlaylist(owner.client, { isPublic: true }) };
}

describe("GET /playlists/:id: the listener's own like", () => {
  it("is false, true after liking, false again after unliking", async () => {
    const { playlist } = await publicPlaylist();
    const listener = await registerAccount("user");
    expect((await read(listener.client, playlist.id)).body.viewer).toEqual({ liked: false });

    expect((await listener.client.post(`${BASE}/${playlist.id}/like`)).status).toBe(200);
    const liked = (await read(listener.client, playlist.id)).body;
    expect(liked.viewer).toEqual({ liked: true });
    expect(liked._count.likes).toBe(1);

    expect((await listener.client.delete(`${BASE}/${playlist.id}/like`)).status).toBe(200);
    expect((await read(listener.client, playlist.id)).body.viewer).toEqual({ liked: false });
  });

  it("is the caller's own: another listener's like does not show", async () => {
    const { playlist } = await publicPlaylist();
    const [fan, other] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    await fan.client.post(`${BASE}/${playlist.id}/like`);
    expect((await read(other.client, playlist.id)).body.viewer).toEqual({ liked: false });
    expect((await read(fan.client, playlist.id)).body.viewer).toEqual({ liked: true });
  });

  it("is shown to the owner of a private playlist", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    expect((await read(owner.client, playlist.id)).body.viewer).toEqual({ liked: false });
    await owner.client.post(`${BASE}/${playlist.id}/like`);
    expect((await read(owner.client, playlist.id)).body.viewer).toEqual({ liked: true });
  });

  it("is absent for an anonymous caller and for an artist", async () => {
    const { playlist } = await publicPlaylist();
    const artist = await registerAccount("artist");
    for (const client of [anyone(), artist.client]) {
      const { body } = await read(client, playlist.id);
      expect(body.id).toBe(playlist.id);
      expect(body).not.toHaveProperty("viewer");
    }
  });
});

describe("GET /playlists/:id through the edge cache", () => {
  async function likedByAFan() {
    const { playlist } = await publicPlaylist();
    const fan = await registerAccount("user");
    expect((await fan.client.post(`${BASE}/${playlist.id}/like`)).status).toBe(200);
    return { fan, id: playlist.id };
  }

  it("an anonymous read after a listener's gets no viewer: the listener's answer was not stored", async () => {
    const { fan, id } = await likedByAFan();
    const own = await fan.client.get(`${BASE}/${id}`);
    expect(own.headers.get("x-edge-cache")).toBe("bypass");
    expect(own.headers.get("cache-control")).toBe("private, no-cache");
    expect(((await own.json()) as Read).viewer).toEqual({ liked: true });

    // A miss: nothing was stored by the listener's read; then a hit of the anonymous copy.
    for (const expected of ["miss", "hit"]) {
      const { body, cache } = await read(anyone(), id);
      expect(cache).toBe(expected);
      expect(body).not.toHaveProperty("viewer");
    }
  });

  it("a listener's read after an anonymous one gets their viewer: never the stored copy", async () => {
    const { fan, id } = await likedByAFan();
    expect((await read(anyone(), id)).cache).toBe("miss");
    expect((await read(anyone(), id)).cache).toBe("hit");

    const own = await read(fan.client, id);
    expect(own.cache).toBe("bypass");
    expect(own.body.viewer).toEqual({ liked: true });
  });
});
