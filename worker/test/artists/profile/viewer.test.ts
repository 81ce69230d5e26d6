import { describe, expect, it } from "vitest";
import { Client, type Registered, registerAccount } from "../../support/auth.ts";
import { insertArtist } from "../../support/factories.ts";
import { follow, like, unfollow, unlike } from "../social/support.ts";

/**
 * What the profile reads say of the artist's audience: its follower and like counts, and the
 * signed-in listener's own relation to it (`viewer`): present for a user only, never for anyone
 * else, never shared through the edge cache.
 */
const anyone = () => new Client();

interface Profile {
  id: string;
  _count: { followers: number; likes: number };
  viewer?: { following: boolean; liked: boolean };
}

async function read(client: Client, path: string) {
  const response = await client.get(path);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return { body: JSON.parse(text) as Profile, cache: response.headers.get("x-edge-cache") };
}

/** Both profile reads of one artist: by id and by username. */
const READS = [
  ["GET /artists/:id", (artist: { id: string }) => `/api/v1/artists/${artist.id}`],
  [
    "GET /artists/by-username/:username",
    (artist: { username: string }) => `/api/v1/artists/by-username/${artist.username}`,
  ],
] as const;

describe.each(READS)("%s: the listener's own relation", (_name, pathOf) => {
  const viewerOf = async (client: Client, artist: { id: string; username: string }) =>
    (await read(client, pathOf(artist))).body.viewer;

  it("is false, true after following and liking, false again after undoing each", async () => {
    const listener = await registerAccount("user");
    const artist = await insertArtist();
    expect(await viewerOf(listener.client, artist)).toEqual({ following: false, liked: false });

    await follow(listener.client, artist.id);
    expect(await viewerOf(listener.client, artist)).toEqual({ following: true, liked: false });
    await like(listener.client, artist.id);
    expect(await viewerOf(listener.client, artist)).toEqual({ following: true, liked: true });

    await unfollow(listener.client, artist.id);
    expect(await viewerOf(listener.client, artist)).toEqual({ following: false, liked: true });
    await unlike(listener.client, artist.id);
    expect(await viewerOf(listener.client, artist)).toEqual({ following: false, liked: false });
  });

  it("is the caller's own: another listener's follow and like do not show", async () => {
    const [fan, other] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const artist = await insertArtist();
    await follow(fan.client, artist.id);
    await like(fan.client, artist.id);
    expect(await viewerOf(other.client, artist)).toEqual({ following: false, liked: false });
    expect(await viewerOf(fan.client, artist)).toEqual({ following: true, liked: true });
  });

  it("is absent for an anonymous caller", async () => {
    const artist = await insertArtist();
    const { body } = await read(anyone(), pathOf(artist));
    expect(body.id).toBe(artist.id);
    expect(body).not.toHaveProperty("viewer");
  });

  it("is absent for an artist caller, the artist itself included", async () => {
    const artist = await registerAccount("artist");
    const other = await registerAccount("artist");
    for (const caller of [artist, other]) {
      const { body, cache } = await read(caller.client, pathOf(artist));
      expect(cache).toBe("bypass");
      expect(body.id).toBe(artist.id);
      expect(body).not.toHaveProperty("viewer");
    }
  });

  it("401 for an access cookie that is present but invalid", async () => {
    const artist = await insertArtist();
    const response = await anyone().get(pathOf(artist), { cookie: "access_token=junk" });
    expect(response.status).toBe(401);
  });
});

describe.each(READS)("%s: the follower and like counts", (_name, pathOf) => {
  const countsOf = async (client: Client, artist: { id: string; username: string }) =>
    (await read(client, pathOf(artist))).body._count;

  it("count every listener's follow and like, each apart, and drop as they are undone", async () => {
    const [a, b, c] = await Promise.all([
      registerAccount("user"),
      registerAccount("user"),
      registerAccount("user"),
    ]);
    const artist = await insertArtist();
    // Read by a listener: never from the edge cache, so each read sees the last write.
    expect(await countsOf(c.client, artist)).toEqual({ followers: 0, likes: 0 });
    await Promise.all([follow(a.client, artist.id), follow(b.client, artist.id)]);
    await like(c.client, artist.id);
    expect(await countsOf(c.client, artist)).toEqual({ followers: 2, likes: 1 });
    await unfollow(a.client, artist.id);
    await unlike(c.client, artist.id);
    expect(await countsOf(a.client, artist)).toEqual({ followers: 1, likes: 0 });
  });

  it("count only this artist's: another artist's followers do not show", async () => {
    const fan = await registerAccount("user");
    const [artist, other] = await Promise.all([insertArtist(), insertArtist()]);
    await follow(fan.client, other.id);
    await like(fan.client, other.id);
    expect(await countsOf(fan.client, artist)).toEqual({ followers: 0, likes: 0 });
    expect(await countsOf(fan.client, other)).toEqual({ followers: 1, likes: 1 });
  });

  it("are in the anonymous answer too", async () => {
    const fan = await registerAccount("user");
    const artist = await insertArtist();
    await follow(fan.client, artist.id);
    expect(await countsOf(anyone(), artist)).toEqual({ followers: 1, likes: 0 });
  });
});

describe.each(READS)("%s through the edge cache", (_name, pathOf) => {
  /** A listener who follows and likes a new artist, so that their `viewer` is all true. */
  async function fanOfNewArtist(): Promise<{ fan: Registered; path: string }> {
    const fan = await registerAccount("user");
    const artist = await insertArtist();
    await follow(fan.client, artist.id);
    await like(fan.client, artist.id);
    return { fan, path: pathOf(artist) };
  }

  it("an anonymous read after a listener's gets no viewer: the listener's answer was not stored", async () => {
    const { fan, path } = await fanOfNewArtist();
    const own = await fan.client.get(path);
    expect(own.headers.get("x-edge-cache")).toBe("bypass");
    expect(own.headers.get("cache-control")).toBe("private, no-cache");
    expect(((await own.json()) as Profile).viewer).toEqual({ following: true, liked: true });

    // A miss: nothing was stored by the listener's read; then a hit of the anonymous copy.
    for (const expected of ["miss", "hit"]) {
      const { body, cache } = await read(anyone(), path);
      expect(cache).toBe(expected);
      expect(body).not.toHaveProperty("viewer");
    }
  });

  it("a listener's read after an anonymous one gets their viewer: never the stored copy", async () => {
    const { fan, path } = await fanOfNewArtist();
    expect((await read(anyone(), path)).cache).toBe("miss");
    expect((await read(anyone(), path)).cache).toBe("hit");

    const own = await read(fan.client, path);
    expect(own.cache).toBe("bypass");
    expect(own.body.viewer).toEqual({ following: true, liked: true });
  });
});
