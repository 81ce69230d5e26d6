import { describe, expect, it } from "vitest";
import { insertArtist, insertTrack } from "../support/factories.ts";
import { type Answer, appAccount, call, catalogue, errorCode, json } from "./support.ts";

const f = "json";
const ids = (list: Answer[] | undefined) => (list ?? []).map((item) => item.id as string);

type Kind = "artist" | "album" | "song";

/** Every page of one kind of an empty search3, as an app's offline sync reads them. */
async function sweep(auth: Record<string, string>, kind: Kind, count: number, query = '""') {
  const seen: string[] = [];
  const items: Answer[] = [];
  const none = { artistCount: "0", albumCount: "0", songCount: "0" };
  for (let page = 0; page < 1000; page++) {
    const body = await json(
      await call("search3", {
        ...auth,
        ...none,
        query,
        [`${kind}Count`]: `${count}`,
        [`${kind}Offset`]: `${seen.length}`,
      }),
    );
    const got = ids(body.searchResult3[kind]);
    seen.push(...got);
    items.push(...(body.searchResult3[kind] ?? []));
    // The answers' items beside the ids, out of the array's compared members.
    if (got.length < count)
      return Object.defineProperty(seen, "items", { value: items }) as string[] & {
        items: Answer[];
      };
  }
  throw new Error("the sweep never ended");
}

describe("Subsonic search3", () => {
  it("finds artists, albums and songs by name; never what is not listed", async () => {
    const c = await catalogue();
    const word = `zq${crypto.randomUUID().slice(0, 8)}`;
    const artist = await insertArtist({ username: word });
    const song = await insertTrack(artist.id, { title: `${word} song` });
    await insertTrack(artist.id, { title: `${word} hidden`, visibility: "unlisted" });
    const auth = { apiKey: (await appAccount()).appPassword, f };

    const result = (await json(await call("search3", { ...auth, query: word }))).searchResult3;
    expect(ids(result.artist)).toEqual([artist.id]);
    expect(ids(result.song)).toEqual([song.id]);
    expect(result.song[0]).toMatchObject({ title: song.title, artistId: artist.id });

    const byAlbum = (await json(await call("search3", { ...auth, query: c.album.title })))
      .searchResult3;
    expect(ids(byAlbum.album)).toEqual([c.album.id]);
    expect(byAlbum.album[0]).toMatchObject({ songCount: 2, artistId: c.artist.id });

    const paged = (
      await json(await call("search3", { ...auth, query: word, songCount: "1", songOffset: "1" }))
    ).searchResult3;
    expect(ids(paged.song)).toEqual([]);
    expect(await errorCode(await call("search3", { ...auth, query: "x".repeat(201) }))).toBe(0);
  });

  // Pages of 100 and 500: the test database holds every test file's catalogue (thousands of
  // songs in a full run), and a sweep ends within 1000 pages.
  it.each([
    ['""', 100],
    ["", 500],
  ])(
    "an empty query (%j) pages through the whole catalogue, each item once",
    async (query, count) => {
      const c = await catalogue();
      const hidden = await insertTrack(c.artist.id, { visibility: "private" });
      const auth = { apiKey: (await appAccount()).appPassword, f };

      const songs = await sweep(auth, "song", count, query);
      expect(new Set(songs).size).toBe(songs.length);
      expect(songs).toEqual(expect.arrayContaining([c.first.id, c.second.id, c.single.id]));
      for (const id of [c.converting.id, c.failed.id, hidden.id]) expect(songs).not.toContain(id);
      expect([...songs].sort()).toEqual(songs);

      const albums = await sweep(auth, "album", count, query);
      expect(new Set(albums).size).toBe(albums.length);
      expect(albums).toEqual(expect.arrayContaining([c.album.id, `single-${c.single.id}`]));
      expect(albums).not.toContain(`single-${hidden.id}`);
      expect(albums.items.find((a) => a.id === c.album.id)).toMatchObject({ songCount: 2 });
      // Real albums first, then the singles, each by id.
      expect([...albums].sort()).toEqual(albums);

      const artists = await sweep(auth, "artist", count, query);
      expect(new Set(artists).size).toBe(artists.length);
      expect(artists.items.find((a) => a.id === c.artist.id)).toMatchObject({ albumCount: 2 });
    },
  );

  it("a seek is the sweep's own: another app's page end never starts this one's next page", async () => {
    await catalogue();
    const page = async (apiKey: string, offset: number) =>
      ids(
        (
          await json(
            await call("search3", {
              apiKey,
              f,
              query: "",
              songCount: "3",
              songOffset: `${offset}`,
            }),
          )
        ).searchResult3.song,
      );
    const one = (await appAccount()).appPassword;
    const two = (await appAccount()).appPassword;
    const first = await page(one, 0);
    // A song sorting first: the second app's first page ends one song earlier than the first's.
    const artist = await insertArtist();
    await insertTrack(artist.id, { id: `00000000${crypto.randomUUID().slice(8)}` });
    await page(two, 0);
    const next = await page(one, 3);
    expect(next.length).toBeGreaterThan(0);
    for (const id of next) expect(id > (first.at(-1) as string)).toBe(true);
  });

  it("the next page's offset is a seek: a song added before it neither repeats nor shifts a row", async () => {
    await catalogue();
    const auth = { apiKey: (await appAccount()).appPassword, f, query: "" };
    const first = ids(
      (await json(await call("search3", { ...auth, songCount: "3", songOffset: "0" })))
        .searchResult3.song,
    );
    expect(first).toHaveLength(3);
    // Sorts before every id of the first page: OFFSET 3 would answer the first page's last again.
    const artist = await insertArtist();
    await insertTrack(artist.id, { id: `00000000${crypto.randomUUID().slice(8)}` });
    const second = ids(
      (await json(await call("search3", { ...auth, songCount: "3", songOffset: "3" })))
        .searchResult3.song,
    );
    expect(second.length).toBeGreaterThan(0);
    for (const id of second) expect(id > (first.at(-1) as string)).toBe(true);
  });
});
