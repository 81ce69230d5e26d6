import { albums } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { withDb } from "../support/factories.ts";
import { type Answer, appAccount, call, catalogue, errorCode, json } from "./support.ts";

const f = "json";
const idsOf = (body: Answer, member = "albumList2") =>
  ((body[member].album ?? []) as Answer[]).map((album) => album.id);

describe("Subsonic album lists (getAlbumList2) and random songs", () => {
  it("newest first, singles included; by year; the caller's recently played; the most played", async () => {
    const { album, first, single } = await catalogue();
    const year = 1200 + Math.floor(Math.random() * 600);
    await withDb((db) =>
      db
        .update(albums)
        .set({ releasedAt: `${year}-05-01` })
        .where(eq(albums.id, album.id)),
    );
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };

    const newest = idsOf(
      await json(await call("getAlbumList2", { ...auth, type: "newest", size: "500" })),
    );
    expect(newest.indexOf(`single-${single.id}`)).toBeGreaterThanOrEqual(0);
    expect(newest.indexOf(`single-${single.id}`)).toBeLessThan(newest.indexOf(album.id));

    const byYear = await json(
      await call("getAlbumList2", {
        ...auth,
        type: "byYear",
        fromYear: `${year}`,
        toYear: `${year}`,
      }),
    );
    expect(idsOf(byYear)).toEqual([album.id]);
    expect(byYear.albumList2.album[0]).toMatchObject({ year, name: album.title, songCount: 2 });

    expect(idsOf(await json(await call("getAlbumList2", { ...auth, type: "recent" })))).toEqual([]);
    await call("scrobble", { ...auth, id: first.id });
    expect(idsOf(await json(await call("getAlbumList2", { ...auth, type: "recent" })))).toEqual([
      album.id,
    ]);
    const frequent = await json(
      await call("getAlbumList2", { ...auth, type: "frequent", size: "500" }),
    );
    expect(idsOf(frequent)).toContain(album.id);

    const random = idsOf(
      await json(await call("getAlbumList2", { ...auth, type: "random", size: "3" })),
    );
    expect(random.length).toBeLessThanOrEqual(3);
    for (const type of ["alphabeticalByName", "alphabeticalByArtist"]) {
      const page = idsOf(await json(await call("getAlbumList2", { ...auth, type, size: "2" })));
      expect(page.length).toBeLessThanOrEqual(2);
    }
    expect(
      idsOf(await json(await call("getAlbumList2", { ...auth, type: "byGenre", genre: "Rock" }))),
    ).toEqual([]);
    // Starred: the caller's album stars; highest: albums whose songs anyone rated, best first.
    expect(idsOf(await json(await call("getAlbumList2", { ...auth, type: "starred" })))).toEqual(
      [],
    );
    await call("star", { ...auth, albumId: album.id });
    expect(idsOf(await json(await call("getAlbumList2", { ...auth, type: "starred" })))).toEqual([
      album.id,
    ]);
    await call("setRating", { ...auth, id: first.id, rating: "5" });
    const highest = idsOf(
      await json(await call("getAlbumList2", { ...auth, type: "highest", size: "500" })),
    );
    expect(highest).toContain(album.id);
    expect(highest).not.toContain(`single-${single.id}`);
  });

  it("10 without a type or a year range of byYear; 0 for an unknown type", async () => {
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    expect(await errorCode(await call("getAlbumList2", auth))).toBe(10);
    expect(await errorCode(await call("getAlbumList2", { ...auth, type: "byYear" }))).toBe(10);
    expect(await errorCode(await call("getAlbumList2", { ...auth, type: "loudest" }))).toBe(0);
  });

  it("getRandomSongs: READY songs up to size; a genre finds nothing (no genres yet)", async () => {
    const { converting, failed } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const songs = (await json(await call("getRandomSongs", { ...auth, size: "500" }))).randomSongs
      .song as Answer[];
    expect(songs.length).toBeGreaterThan(0);
    expect(songs.length).toBeLessThanOrEqual(500);
    expect(songs.map((song) => song.id)).not.toContain(converting.id);
    expect(songs.map((song) => song.id)).not.toContain(failed.id);
    const genre = await json(await call("getRandomSongs", { ...auth, genre: "Rock" }));
    expect(genre.randomSongs).toEqual({ song: [] });
  });
});
