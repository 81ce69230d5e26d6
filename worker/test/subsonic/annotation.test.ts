import { describe, expect, it } from "vitest";
import { type Answer, appAccount, call, catalogue, errorCode, json } from "./support.ts";

const f = "json";

describe("Subsonic stars and lists: the REST API's likes", () => {
  it("a star on a song is a track like, on an artist an artist like; unstar takes them back", async () => {
    const { artist, first, converting } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    expect(
      await errorCode(await call("star", { ...auth, id: first.id, artistId: artist.id })),
    ).toBeUndefined();

    const liked = await account.client.get("/api/v1/tracks/me/liked");
    expect(((await liked.json()) as Answer[]).map((t) => t.id ?? t.track?.id)).toEqual([first.id]);
    const artists = await account.client.get("/api/v1/artists/me/liked");
    expect(((await artists.json()) as Answer[]).map((a) => a.id)).toEqual([artist.id]);

    const starred = (await json(await call("getStarred2", auth))).starred2;
    expect(starred.song.map((s: Answer) => s.id)).toEqual([first.id]);
    expect(starred.song[0].starred).toMatch(/^\d{4}-/);
    expect(starred.artist.map((a: Answer) => a.id)).toEqual([artist.id]);
    expect(starred.album).toEqual([]);

    expect(
      await errorCode(await call("unstar", { ...auth, id: first.id, artistId: artist.id })),
    ).toBeUndefined();
    const after = (await json(await call("getStarred2", auth))).starred2;
    expect([after.song, after.artist]).toEqual([[], []]);

    // Only what a listener may hear; albums have no like yet; something must be named.
    expect(await errorCode(await call("star", { ...auth, id: converting.id }))).toBe(70);
    expect(await errorCode(await call("star", { ...auth, albumId: crypto.randomUUID() }))).toBe(0);
    expect(await errorCode(await call("star", auth))).toBe(10);
    // Each item is a write of its own: a call may name only so many.
    const many = Array.from({ length: 51 }, () => crypto.randomUUID());
    expect(await errorCode(await call("star", { ...auth, id: many }, { method: "POST" }))).toBe(0);
    expect(await errorCode(await call("scrobble", { ...auth, id: many }, { method: "POST" }))).toBe(
      0,
    );
  });

  it("an artist account stars nothing (50) and sees no stars of a listener with its username", async () => {
    const artistAccount = await appAccount("artist");
    const auth = { apiKey: artistAccount.appPassword, f };
    const { first } = await catalogue();
    expect(await errorCode(await call("star", { ...auth, id: first.id }))).toBe(50);
    const starred = (await json(await call("getStarred2", auth))).starred2;
    expect([starred.song, starred.artist]).toEqual([[], []]);
  });

  it("getMusicDirectory: an artist holds its albums, an album its songs", async () => {
    const { artist, album, first, second, single } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const top = (await json(await call("getMusicDirectory", { ...auth, id: artist.id }))).directory;
    expect(top).toMatchObject({ id: artist.id, name: artist.username });
    expect(top.child.map((c: Answer) => c.id).sort()).toEqual(
      [album.id, `single-${single.id}`].sort(),
    );
    expect(top.child[0]).toMatchObject({ isDir: true, parent: artist.id });
    const inner = (await json(await call("getMusicDirectory", { ...auth, id: album.id })))
      .directory;
    expect(inner).toMatchObject({ id: album.id, name: album.title, parent: artist.id });
    expect(inner.child.map((c: Answer) => c.id)).toEqual([first.id, second.id]);
    expect(
      await errorCode(await call("getMusicDirectory", { ...auth, id: crypto.randomUUID() })),
    ).toBe(70);
  });

  it("answers empty lists where our model holds nothing yet", async () => {
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const empty: Array<[string, string]> = [
      ["getGenres", "genres"],
      ["getLyricsBySongId", "lyricsList"],
      ["getNowPlaying", "nowPlaying"],
    ];
    for (const [method, member] of empty) {
      const body = await json(
        await call(method, { ...auth, id: crypto.randomUUID(), artist: "x" }),
      );
      expect(body.status).toBe("ok");
      expect(body[member]).toEqual({});
    }
  });
});
