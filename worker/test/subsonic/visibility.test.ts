import { albums, playlists, tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addTracks, createPlaylist } from "../playlists/support.ts";
import { insertAlbum, insertTrack, withDb } from "../support/factories.ts";
import { type Answer, appAccount, call, catalogue, errorCode, json, withOpus } from "./support.ts";

const f = "json";

/**
 * ADR 0025 through the door: only public items are ever listed or read (unlisted ones too stay
 * out, share key or not); a listener's own playlists whatever their visibility.
 */
async function hiddenCatalogue() {
  const shown = await catalogue();
  const { artist } = shown;
  const unlisted = await insertTrack(artist.id, { title: "Unlisted", visibility: "unlisted" });
  const privateSingle = await insertTrack(artist.id, { title: "Private", visibility: "private" });
  const privateAlbum = await insertAlbum(artist.id);
  await withDb((db) =>
    db.update(albums).set({ visibility: "private" }).where(eq(albums.id, privateAlbum.id)),
  );
  // A public track in a private album: the album hides it.
  const inPrivateAlbum = await insertTrack(artist.id, { albumId: privateAlbum.id });
  await withOpus(unlisted.id, [128]);
  return { ...shown, unlisted, privateSingle, privateAlbum, inPrivateAlbum };
}

const ids = (list: Answer[] | undefined) => (list ?? []).map((item) => item.id as string);

describe("Subsonic visibility: public items only, a listener's own playlists", () => {
  it("never lists or reads an unlisted or private track or album", async () => {
    const c = await hiddenCatalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const hidden = [c.unlisted.id, c.privateSingle.id, c.inPrivateAlbum.id];

    const artist = (await json(await call("getArtist", { ...auth, id: c.artist.id }))).artist;
    expect(ids(artist.album).sort()).toEqual([c.album.id, `single-${c.single.id}`].sort());
    const directory = (await json(await call("getMusicDirectory", { ...auth, id: c.artist.id })))
      .directory;
    expect(ids(directory.child)).not.toContain(c.privateAlbum.id);

    for (const id of hidden) {
      expect(await errorCode(await call("getSong", { ...auth, id }))).toBe(70);
      expect(await errorCode(await call("getAlbum", { ...auth, id: `single-${id}` }))).toBe(70);
      expect(await errorCode(await call("getCoverArt", { ...auth, id: `tr-${id}` }))).toBe(70);
    }
    expect(await errorCode(await call("stream", { ...auth, id: c.unlisted.id }))).toBe(70);
    expect(await errorCode(await call("download", { ...auth, id: c.unlisted.id }))).toBe(70);
    expect(await errorCode(await call("getAlbum", { ...auth, id: c.privateAlbum.id }))).toBe(70);
    expect(await errorCode(await call("getAlbumInfo2", { ...auth, id: c.privateAlbum.id }))).toBe(
      70,
    );
    expect(
      await errorCode(await call("getCoverArt", { ...auth, id: `al-${c.privateAlbum.id}` })),
    ).toBe(70);

    const newest = (
      await json(await call("getAlbumList2", { ...auth, type: "newest", size: "500" }))
    ).albumList2.album as Answer[];
    expect(ids(newest)).toContain(c.album.id);
    for (const id of [c.privateAlbum.id, `single-${c.unlisted.id}`]) {
      expect(ids(newest)).not.toContain(id);
    }
    const random = (await json(await call("getRandomSongs", { ...auth, size: "500" }))).randomSongs
      .song as Answer[];
    for (const id of hidden) expect(ids(random)).not.toContain(id);

    // A star of a song that is later hidden stays a like, but is not listed.
    await call("star", { ...auth, id: c.first.id });
    await withDb((db) =>
      db.update(tracks).set({ visibility: "unlisted" }).where(eq(tracks.id, c.first.id)),
    );
    const starred = (await json(await call("getStarred2", auth))).starred2;
    expect(ids(starred.song)).toEqual([]);
  });

  it("own playlists whatever their visibility; another's unlisted one answers 70", async () => {
    const c = await hiddenCatalogue();
    const owner = await appAccount();
    const unlisted = await createPlaylist(owner.client, { title: "Link only", isPublic: false });
    await withDb((db) =>
      db.update(playlists).set({ visibility: "unlisted" }).where(eq(playlists.id, unlisted.id)),
    );
    const shown = await createPlaylist(owner.client, { title: "Shown", isPublic: true });
    expect(
      (await addTracks(owner.client, shown.id, [c.first.id, c.inPrivateAlbum.id])).status,
    ).toBeLessThan(300);
    const auth = { apiKey: owner.appPassword, f };

    const mine = (await json(await call("getPlaylists", auth))).playlists.playlist as Answer[];
    expect(ids(mine).sort()).toEqual([unlisted.id, shown.id].sort());
    expect((await json(await call("getPlaylist", { ...auth, id: unlisted.id }))).playlist).toEqual(
      expect.objectContaining({ id: unlisted.id, public: false }),
    );

    const other = { apiKey: (await appAccount()).appPassword, f };
    expect(await errorCode(await call("getPlaylist", { ...other, id: unlisted.id }))).toBe(70);
    const public_ = (await json(await call("getPlaylist", { ...other, id: shown.id }))).playlist;
    expect(ids(public_.entry)).toEqual([c.first.id]);
    expect(public_.songCount).toBe(1);
  });
});
