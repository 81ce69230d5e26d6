import { describe, expect, it } from "vitest";
import { uniqueName } from "../support/auth.ts";
import { insertTrack } from "../support/factories.ts";
import { type Answer, appAccount, call, catalogue, errorCode, json } from "./support.ts";

const f = "json";
const ids = (nodes: Answer[] | undefined) => (nodes ?? []).map((node) => node.id);

/**
 * The folder-shaped forms apps call unless "browse by tags" is on (DSub and Ultrasonic by
 * default): the ID3 method's answer in the older shape, so both forms always agree.
 */
describe("Subsonic's folder forms of the ID3 methods", () => {
  it("getAlbumList, getStarred, search2 list what their ID3 forms list, albums as directories", async () => {
    const { artist, album, first } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const starred = await call("star", {
      ...auth,
      id: first.id,
      albumId: album.id,
      artistId: artist.id,
    });
    expect(await errorCode(starred)).toBeUndefined();

    const id3 = (await json(await call("getAlbumList2", { ...auth, type: "starred" }))).albumList2;
    const folder = (await json(await call("getAlbumList", { ...auth, type: "starred" }))).albumList;
    expect(ids(folder.album)).toEqual(ids(id3.album));
    expect(folder.album).toEqual([
      expect.objectContaining({
        id: album.id,
        parent: artist.id,
        isDir: true,
        title: album.title,
        album: album.title,
        artistId: artist.id,
      }),
    ]);

    const stars = (await json(await call("getStarred", auth))).starred;
    expect(ids(stars.song)).toEqual([first.id]);
    expect(ids(stars.album)).toEqual([album.id]);
    expect(stars.album[0].isDir).toBe(true);
    expect(stars.artist).toEqual([
      { id: artist.id, name: artist.username, starred: expect.stringMatching(/^\d{4}-/) },
    ]);

    // A title of its own: other files add tracks while this one runs, so a shared title's results
    // could change between the two calls.
    const own = await insertTrack(artist.id, { title: `Folder ${uniqueName("f")}` });
    const query = { query: own.title };
    const three = (await json(await call("search3", { ...auth, ...query }))).searchResult3;
    const two = (await json(await call("search2", { ...auth, ...query }))).searchResult2;
    expect(ids(two.song)).toEqual(ids(three.song));
    expect(ids(two.album)).toEqual(ids(three.album));
    expect(ids(two.song)).toEqual([own.id]);
    expect((two.album ?? []).every((entry: Answer) => entry.isDir === true)).toBe(true);
  });

  it("getArtistInfo, getAlbumInfo and getSimilarSongs answer as their ID3 forms", async () => {
    const { artist, album } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const info = await json(await call("getArtistInfo", { ...auth, id: artist.id }));
    const info2 = await json(await call("getArtistInfo2", { ...auth, id: artist.id }));
    expect(info.artistInfo).toEqual(info2.artistInfo2);
    const albumInfo = await json(await call("getAlbumInfo", { ...auth, id: album.id }));
    expect(albumInfo.albumInfo).toEqual(
      (await json(await call("getAlbumInfo2", { ...auth, id: album.id }))).albumInfo,
    );
    const similar = await json(await call("getSimilarSongs", { ...auth, id: artist.id }));
    expect(similar.similarSongs).toEqual(
      (await json(await call("getSimilarSongs2", { ...auth, id: artist.id }))).similarSongs2,
    );
    // Unknown ids answer as the ID3 forms do.
    const unknown = crypto.randomUUID();
    expect(await errorCode(await call("getArtistInfo", { ...auth, id: unknown }))).toBe(70);
    expect(await errorCode(await call("getAlbumInfo", { ...auth, id: unknown }))).toBe(70);
  });

  it("what our model does not hold is an empty list, not an error", async () => {
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const empty: Array<[string, string, Record<string, string>]> = [
      ["getPodcasts", "podcasts", {}],
      ["getNewestPodcasts", "newestPodcasts", {}],
      ["getInternetRadioStations", "internetRadioStations", {}],
      ["getBookmarks", "bookmarks", {}],
      ["getShares", "shares", {}],
      ["getChatMessages", "chatMessages", {}],
      ["getVideos", "videos", {}],
      ["getSongsByGenre", "songsByGenre", { genre: "Rock" }],
      ["getLyrics", "lyrics", { artist: "A", title: "B" }],
    ];
    for (const [method, container, args] of empty) {
      const body = await json(await call(method, { ...auth, ...args }));
      expect([method, body.status, body[container]]).toEqual([method, "ok", {}]);
    }
    expect(await errorCode(await call("getSongsByGenre", auth))).toBe(10);
    // Making such things is not served.
    expect(await errorCode(await call("createBookmark", { ...auth, id: "x", position: "1" }))).toBe(
      70,
    );
  });
});
