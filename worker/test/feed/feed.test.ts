import { tracks } from "@edge-music/db";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../support/auth.ts";
import { insertAlbum, insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";

const FEED = "/api/v1/users/me/feed";

type Item =
  | { type: "track"; at: string; track: { id: string; artist: { id: string } } }
  | { type: "album"; at: string; album: { id: string; artist: { id: string } } };
interface Feed {
  items: Item[];
  nextCursor: string | null;
  newSince: number | null;
}

async function read(client: Client, query = ""): Promise<Feed> {
  const response = await client.get(`${FEED}${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Feed;
}

const idOf = (item: Item) => (item.type === "track" ? item.track.id : item.album.id);

/**
 * Sets a row's creation time, so that the order under test does not hang on the clock: as SQL
 * text, to the microsecond (a Date keeps milliseconds only).
 */
const createdAt = (id: string, at: string) =>
  withDb((db) =>
    db
      .update(tracks)
      .set({ createdAt: sql`${at}::timestamptz` })
      .where(eq(tracks.id, id)),
  );

describe("GET /users/me/feed", () => {
  it("lists the followed artists' singles and albums, newest first, and nobody else's", async () => {
    const listener = await registerAccount("user");
    const [followedArtist, other] = await Promise.all([insertArtist(), insertArtist()]);
    await listener.client.post(`/api/v1/artists/${followedArtist.id}/follow`);
    const older = await insertTrack(followedArtist.id);
    await createdAt(older.id, "2026-01-01T00:00:00Z");
    const album = await insertAlbum(followedArtist.id);
    // An album counts once it holds a READY track; its track is not a single.
    await insertTrack(followedArtist.id, { albumId: album.id });
    const newer = await insertTrack(followedArtist.id);
    // Not releases: a track still converting, an empty album, another artist's single.
    await insertTrack(followedArtist.id, { processingStatus: "PROCESSING" });
    await insertAlbum(followedArtist.id);
    await insertTrack(other.id);

    const feed = await read(listener.client);
    expect(feed.items.map(idOf)).toEqual([newer.id, album.id, older.id]);
    expect(feed.items.map((item) => item.type)).toEqual(["track", "album", "track"]);
    expect(feed).toMatchObject({ nextCursor: null, newSince: null });

    await listener.client.delete(`/api/v1/artists/${followedArtist.id}/follow`);
    expect((await read(listener.client)).items).toEqual([]);
  });

  it("pages by cursor without repeating or skipping, and counts what is new since a visit", async () => {
    const listener = await registerAccount("user");
    const artist = await insertArtist();
    await listener.client.post(`/api/v1/artists/${artist.id}/follow`);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await insertTrack(artist.id));
    // Two in the same microsecond: the id decides between them.
    const [a, b, c, d, e] = made.map((t) => t.id) as [string, string, string, string, string];
    await createdAt(a, "2026-03-01T10:00:00.000001Z");
    await createdAt(b, "2026-03-01T10:00:00.000002Z");
    await createdAt(c, "2026-03-01T10:00:00.000002Z");
    await createdAt(d, "2026-03-02T10:00:00Z");
    await createdAt(e, "2026-03-03T10:00:00Z");
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Feed = await read(
        listener.client,
        `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map(idOf));
      cursor = page.nextCursor;
    } while (cursor);
    const sameMoment = [b, c].sort().reverse();
    expect(seen).toEqual([e, d, ...sameMoment, a]);

    const since = await read(listener.client, "?since=2026-03-01T12:00:00Z");
    expect(since.newSince).toBe(2);
  });

  it("refuses a bad cursor, limit or since with 400, strangers with 401, artists with 403", async () => {
    const listener = await registerAccount("user");
    for (const query of [
      "?cursor=nonsense",
      `?cursor=${btoa(JSON.stringify(["2026-01-01", "x"]))}`,
      "?limit=0",
      "?limit=51",
      "?since=yesterday",
    ]) {
      await expectProblem(await listener.client.get(`${FEED}${query}`), 400, "VALIDATION_FAILED");
    }
    await expectProblem(await new Client().get(FEED), 401, "UNAUTHORIZED");
    const artist = await registerAccount("artist");
    await expectProblem(await artist.client.get(FEED), 403, "FORBIDDEN");
  });
});
