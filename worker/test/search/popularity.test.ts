import { albums } from "@edge-music/db";
import { describe, expect, it } from "vitest";
import { insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { addFollowers, addLikes, found, insertPlaylist, marker } from "./support.ts";

/*
 * Titles `<marker> <word>` all rank the same for the query `<marker>` (full text, same length),
 * so the order shows the tie-breaks. Rows are made in an order that no other rule would give.
 */

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

async function expectTiedOrder(
  type: Parameters<typeof found>[0],
  q: string,
  ids: string[],
  limit?: number,
) {
  const items = await found(type, q, limit);
  expect(items.map((item) => item.id)).toEqual(ids);
  expect(new Set(items.map((item) => item.rank)).size).toBe(1);
}

describe("GET /search: equal ranks", () => {
  it("puts artists with more followers first, then the newest", async () => {
    const m = marker();
    const bravo = await insertArtist({ username: `${m} bravo` });
    const delta = await insertArtist({ username: `${m} delta` });
    const alpha = await insertArtist({ username: `${m} alpha` });
    const echo = await insertArtist({ username: `${m} echo` });
    await addFollowers(bravo.id, 2);
    await addFollowers(delta.id, 1);
    await expectTiedOrder("artists", m, [bravo.id, delta.id, echo.id, alpha.id]);
  });

  it("puts playlists with more likes first, then the newest", async () => {
    const m = marker();
    const bravo = await insertPlaylist({ title: `${m} bravo`, createdAt: at(1) });
    const delta = await insertPlaylist({ title: `${m} delta`, createdAt: at(2) });
    const alpha = await insertPlaylist({ title: `${m} alpha`, createdAt: at(3) });
    const echo = await insertPlaylist({ title: `${m} echo`, createdAt: at(4) });
    await addLikes(bravo.id, 2);
    await addLikes(delta.id, 1);
    await expectTiedOrder("playlists", m, [bravo.id, delta.id, echo.id, alpha.id]);
  });

  it("keeps the most liked when the limit cuts through tied rows", async () => {
    const m = marker();
    const rows = [];
    // Newest last, so neither the order of rows nor creation time would pick the liked ones.
    for (const [minute, name] of ["bravo", "delta", "alpha", "echo", "golf"].entries()) {
      rows.push(await insertPlaylist({ title: `${m} ${name}`, createdAt: at(minute) }));
    }
    const [bravo, delta] = rows.map((row) => row.id) as [string, string];
    await addLikes(delta, 2);
    await addLikes(bravo, 1);
    await expectTiedOrder("playlists", m, [delta, bravo], 2);
  });

  it("puts the newest tracks first", async () => {
    const m = marker();
    const artist = await insertArtist();
    const middle = await insertTrack(artist.id, { title: `${m} bravo`, createdAt: at(2) });
    const newest = await insertTrack(artist.id, { title: `${m} delta`, createdAt: at(3) });
    const oldest = await insertTrack(artist.id, { title: `${m} alpha`, createdAt: at(1) });
    await expectTiedOrder("tracks", m, [newest.id, middle.id, oldest.id]);
  });

  it("puts the newest albums first", async () => {
    const m = marker();
    const artist = await insertArtist();
    const rows = await withDb((db) =>
      db
        .insert(albums)
        .values([
          { artistId: artist.id, title: `${m} bravo`, createdAt: at(2) },
          { artistId: artist.id, title: `${m} delta`, createdAt: at(3) },
          { artistId: artist.id, title: `${m} alpha`, createdAt: at(1) },
        ])
        .returning({ id: albums.id }),
    );
    const [middle, newest, oldest] = rows.map((row) => row.id);
    await expectTiedOrder("albums", m, [newest, middle, oldest] as string[]);
  });
});
