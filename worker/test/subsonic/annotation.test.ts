import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { withDb } from "../support/factories.ts";
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

    // Only what a listener may hear; something must be named.
    expect(await errorCode(await call("star", { ...auth, id: converting.id }))).toBe(70);
    expect(await errorCode(await call("star", { ...auth, albumId: crypto.randomUUID() }))).toBe(70);
    expect(await errorCode(await call("star", auth))).toBe(10);
    // Each item is a write of its own: a call may name only so many.
    const many = Array.from({ length: 51 }, () => crypto.randomUUID());
    expect(await errorCode(await call("star", { ...auth, id: many }, { method: "POST" }))).toBe(0);
    expect(await errorCode(await call("scrobble", { ...auth, id: many }, { method: "POST" }))).toBe(
      0,
    );
  });

  it("a star on an album is its like (getStarred2, getAlbum); on a single's album its track's", async () => {
    const { album, single } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    expect(
      await errorCode(await call("star", { ...auth, albumId: [album.id, `single-${single.id}`] })),
    ).toBeUndefined();
    const starred = (await json(await call("getStarred2", auth))).starred2;
    expect(starred.album.map((a: Answer) => a.id)).toEqual([album.id]);
    expect(starred.album[0]).toMatchObject({
      songCount: 2,
      starred: expect.stringMatching(/^\d{4}-/),
    });
    expect(starred.song.map((s: Answer) => s.id)).toEqual([single.id]);
    const full = (await json(await call("getAlbum", { ...auth, id: album.id }))).album;
    expect(full.starred).toMatch(/^\d{4}-/);
    // Another listener sees no star of this one.
    const other = { apiKey: (await appAccount()).appPassword, f };
    expect((await json(await call("getAlbum", { ...other, id: album.id }))).album.starred).toBe(
      undefined,
    );
    await call("unstar", { ...auth, albumId: album.id });
    expect((await json(await call("getStarred2", auth))).starred2.album).toEqual([]);
  });

  it("setRating: 1–5 is the listener's userRating on the song, 0 removes it", async () => {
    const { first, converting } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const rating = async (a = auth) =>
      (await json(await call("getSong", { ...a, id: first.id }))).song.userRating;
    expect(await rating()).toBeUndefined();
    expect(await errorCode(await call("setRating", { ...auth, id: first.id, rating: "4" }))).toBe(
      undefined,
    );
    expect(await rating()).toBe(4);
    await call("setRating", { ...auth, id: first.id, rating: "2" });
    expect(await rating()).toBe(2);
    const album = (await json(await call("getAlbum", { ...auth, id: first.albumId as string })))
      .album;
    expect(album.song[0]).toMatchObject({ id: first.id, userRating: 2 });
    expect(await rating({ apiKey: (await appAccount()).appPassword, f })).toBeUndefined();
    await call("setRating", { ...auth, id: first.id, rating: "0" });
    expect(await rating()).toBeUndefined();

    expect(await errorCode(await call("setRating", { ...auth, id: first.id, rating: "6" }))).toBe(
      0,
    );
    expect(await errorCode(await call("setRating", { ...auth, id: first.id }))).toBe(10);
    expect(
      await errorCode(await call("setRating", { ...auth, id: converting.id, rating: "3" })),
    ).toBe(70);
    const artist = { apiKey: (await appAccount("artist")).appPassword, f };
    expect(await errorCode(await call("setRating", { ...artist, id: first.id, rating: "3" }))).toBe(
      50,
    );
  });

  it("a song's playCount is its counted plays (tracks.plays, ADR 0028)", async () => {
    const { first } = await catalogue();
    await withDb((db) => db.update(tracks).set({ plays: 7 }).where(eq(tracks.id, first.id)));
    const auth = { apiKey: (await appAccount()).appPassword, f };
    expect((await json(await call("getSong", { ...auth, id: first.id }))).song.playCount).toBe(7);
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
