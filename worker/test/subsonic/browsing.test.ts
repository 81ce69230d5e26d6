import { albums, artists } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { type Answer, appAccount, call, catalogue, errorCode, json, xml } from "./support.ts";

const f = "json";

/** Every artist entry of a getArtists/getIndexes answer, whatever its letter. */
const artistsIn = (indexes: Answer) =>
  (indexes.index as Answer[]).flatMap((index) => index.artist as Answer[]);

describe("Subsonic browsing: our catalogue, READY tracks only", () => {
  it("system methods: ping, getLicense, getScanStatus, getMusicFolders, getUser (own only: 50)", async () => {
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    expect((await json(await call("getLicense", auth))).license).toEqual({ valid: true });
    expect((await json(await call("getScanStatus", auth))).scanStatus).toEqual({
      scanning: false,
    });
    expect((await json(await call("getMusicFolders", auth))).musicFolders).toEqual({
      musicFolder: [{ id: 1, name: "Edge Music" }],
    });
    const user = (await json(await call("getUser", { ...auth, username: account.username }))).user;
    expect(user).toMatchObject({
      username: account.username,
      streamRole: true,
      adminRole: false,
      scrobblingEnabled: true,
      folder: [1],
    });
    expect(await errorCode(await call("getUser", { ...auth, username: "someone-else" }))).toBe(50);
    const asXml = await xml(await call("getUser", { apiKey: account.appPassword }));
    expect(asXml.user).toMatchObject({ username: account.username, folder: [1] });
  });

  it("getArtists and getIndexes list artists with something playable, under their letter", async () => {
    const { artist } = await catalogue();
    const silent = await insertArtist();
    await insertTrack(silent.id, { processingStatus: "PROCESSING" });
    const account = await appAccount();
    const artists = (await json(await call("getArtists", { apiKey: account.appPassword, f })))
      .artists;
    expect(artists.ignoredArticles).toBe("");
    const listed = artistsIn(artists);
    expect(listed).toContainEqual({ id: artist.id, name: artist.username, albumCount: 2 });
    expect(listed.map((a) => a.id)).not.toContain(silent.id);
    const letter = artist.username.charAt(0).toUpperCase();
    const index = (artists.index as Answer[]).find((i) => i.name === letter);
    expect(index?.artist.map((a: Answer) => a.id)).toContain(artist.id);

    const indexes = (await json(await call("getIndexes", { apiKey: account.appPassword, f })))
      .indexes;
    expect(typeof indexes.lastModified).toBe("number");
    expect(artistsIn(indexes)).toContainEqual({ id: artist.id, name: artist.username });
  });

  it("getArtist: its albums, a track without an album as a single of its own", async () => {
    const { artist, album, single } = await catalogue();
    const account = await appAccount();
    const body = await json(
      await call("getArtist", { apiKey: account.appPassword, f, id: artist.id }),
    );
    expect(body.artist).toMatchObject({ id: artist.id, name: artist.username, albumCount: 2 });
    const albums = body.artist.album as Answer[];
    expect(albums.map((a) => a.id).sort()).toEqual([album.id, `single-${single.id}`].sort());
    expect(albums.find((a) => a.id === album.id)).toMatchObject({
      name: album.title,
      artistId: artist.id,
      songCount: 2,
    });
  });

  it("getAlbum: the READY tracks in their order; the single's album is its track", async () => {
    const { album, first, second, single } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const body = await json(await call("getAlbum", { ...auth, id: album.id }));
    expect(body.album).toMatchObject({ id: album.id, name: album.title, songCount: 2 });
    expect((body.album.song as Answer[]).map((s) => s.id)).toEqual([first.id, second.id]);
    expect(body.album.song[0]).toMatchObject({
      parent: album.id,
      albumId: album.id,
      track: 1,
      isDir: false,
      duration: 216,
      suffix: "m4a",
      contentType: "audio/mp4",
      type: "music",
    });

    const own = await json(await call("getAlbum", { ...auth, id: `single-${single.id}` }));
    expect(own.album).toMatchObject({ id: `single-${single.id}`, name: "A single", songCount: 1 });
    expect(own.album.song).toEqual([
      expect.objectContaining({ id: single.id, albumId: `single-${single.id}` }),
    ]);
  });

  it("getSong; 70 for an unknown, malformed or unfinished id; 10 without one", async () => {
    const { first, converting, failed } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const song = (await json(await call("getSong", { ...auth, id: first.id }))).song;
    expect(song).toMatchObject({ id: first.id, title: first.title });
    for (const id of [converting.id, failed.id, crypto.randomUUID(), "not-an-id"]) {
      expect(await errorCode(await call("getSong", { ...auth, id }))).toBe(70);
      expect(await errorCode(await call("getAlbum", { ...auth, id: `single-${id}` }))).toBe(70);
    }
    expect(await errorCode(await call("getArtist", { ...auth, id: crypto.randomUUID() }))).toBe(70);
    expect(await errorCode(await call("getSong", auth))).toBe(10);
  });
});

describe("Subsonic info: bios, notes and whose key it is", () => {
  it("getArtistInfo2, getAlbumInfo2 and tokenInfo", async () => {
    const { artist, album } = await catalogue();
    const cover = `/static/covers/${crypto.randomUUID()}.png`;
    await withDb(async (db) => {
      await db.update(artists).set({ bio: "From the sea." }).where(eq(artists.id, artist.id));
      await db
        .update(albums)
        .set({ description: "Recorded at night.", cover })
        .where(eq(albums.id, album.id));
    });
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const artistInfo = (await json(await call("getArtistInfo2", { ...auth, id: artist.id })))
      .artistInfo2;
    expect(artistInfo).toEqual({ biography: "From the sea.", similarArtist: [] });
    const albumInfo = (await json(await call("getAlbumInfo2", { ...auth, id: album.id })))
      .albumInfo;
    expect(albumInfo.notes).toBe("Recorded at night.");
    expect(new URL(albumInfo.largeImageUrl).pathname).toBe(cover);
    expect(await errorCode(await call("getAlbumInfo2", { ...auth, id: crypto.randomUUID() }))).toBe(
      70,
    );
    expect((await json(await call("tokenInfo", auth))).tokenInfo).toEqual({
      username: account.username,
    });
  });
});
