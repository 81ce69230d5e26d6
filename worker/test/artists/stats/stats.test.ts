import { follows, trackLikes } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deliver, play } from "../../plays/support.ts";
import { registerAccount } from "../../support/auth.ts";
import { insertArtist, insertTrack, insertUser, withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";

const STATS = "/api/v1/artists/me/stats";
const DAY = 24 * 3600 * 1000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

interface Stats {
  from: string;
  to: string;
  trackId: string | null;
  days: Array<{
    day: string;
    plays: number;
    listeners: number;
    likes: number;
    newFollowers: number;
  }>;
  topTracks: Array<{ id: string; title: string; plays: number; listeners: number }>;
  countries: Array<{ country: string; plays: number }>;
}

describe("GET /artists/me/stats", () => {
  it("shows two listeners' plays per day, the likes, the new followers, the top tracks and the countries", async () => {
    const artist = await registerAccount("artist");
    const first = await insertTrack(artist.id, { title: "First" });
    const second = await insertTrack(artist.id, { title: "Second" });
    const [alice, bob] = [`u:${crypto.randomUUID()}`, `n:${"ab".repeat(16)}`];
    const now = new Date();
    const yesterday = new Date(now.getTime() - DAY);
    await deliver([
      play(first.id, alice, yesterday, "FR"),
      play(first.id, alice, now, "FR"),
      play(first.id, bob, now, "DE"),
      play(second.id, bob, now, "DE"),
    ]);
    const fan = await insertUser();
    await withDb(async (db) => {
      await db.insert(trackLikes).values({ userId: fan.id, trackId: first.id });
      await db.insert(follows).values({ userId: fan.id, artistId: artist.id });
    });
    const response = await artist.client.get(`${STATS}?from=${dayOf(yesterday)}&to=${dayOf(now)}`);
    expect(response.status).toBe(200);
    const stats = (await response.json()) as Stats;
    expect(stats.days).toEqual([
      { day: dayOf(yesterday), plays: 1, listeners: 1, likes: 0, newFollowers: 0 },
      // bob heard both tracks: one listener of the artist that day.
      { day: dayOf(now), plays: 3, listeners: 2, likes: 1, newFollowers: 1 },
    ]);
    expect(stats.topTracks).toEqual([
      { id: first.id, title: "First", plays: 3, listeners: 3 },
      { id: second.id, title: "Second", plays: 1, listeners: 1 },
    ]);
    expect(stats.countries).toEqual([
      { country: "DE", plays: 2 },
      { country: "FR", plays: 2 },
    ]);

    const one = (await (
      await artist.client.get(`${STATS}?from=${dayOf(now)}&to=${dayOf(now)}&trackId=${second.id}`)
    ).json()) as Stats;
    expect(one.trackId).toBe(second.id);
    expect(one.days).toEqual([
      { day: dayOf(now), plays: 1, listeners: 1, likes: 0, newFollowers: 1 },
    ]);
    expect(one.topTracks.map((t) => t.id)).toEqual([second.id]);
  });

  it("counts likes and follows on the day they were made, and takes back what is taken back", async () => {
    const artist = await registerAccount("artist");
    const track = await insertTrack(artist.id);
    const [fan, other] = [await insertUser(), await insertUser()];
    const now = new Date();
    const earlier = new Date(now.getTime() - 3 * DAY);
    await withDb(async (db) => {
      await db.insert(trackLikes).values([
        { userId: fan.id, trackId: track.id, createdAt: earlier },
        { userId: other.id, trackId: track.id },
      ]);
      await db.insert(follows).values([
        { userId: fan.id, artistId: artist.id, createdAt: earlier },
        { userId: other.id, artistId: artist.id },
      ]);
    });
    const daysOf = async () =>
      (
        (await (
          await artist.client.get(`${STATS}?from=${dayOf(earlier)}&to=${dayOf(now)}`)
        ).json()) as Stats
      ).days.map((d) => [d.day, d.likes, d.newFollowers]);
    expect(await daysOf()).toEqual([
      [dayOf(earlier), 1, 1],
      [dayOf(new Date(earlier.getTime() + DAY)), 0, 0],
      [dayOf(new Date(earlier.getTime() + 2 * DAY)), 0, 0],
      [dayOf(now), 1, 1],
    ]);
    // The fan takes back the like and the follow: gone from the day they were made.
    await withDb(async (db) => {
      await db.delete(trackLikes).where(eq(trackLikes.userId, fan.id));
      await db.delete(follows).where(eq(follows.userId, fan.id));
    });
    expect((await daysOf())[0]).toEqual([dayOf(earlier), 0, 0]);
    expect((await daysOf())[3]).toEqual([dayOf(now), 1, 1]);
  });

  it("covers the last 30 days by default, every day present", async () => {
    const artist = await registerAccount("artist");
    const stats = (await (await artist.client.get(STATS)).json()) as Stats;
    expect(stats.to).toBe(dayOf(new Date()));
    expect(stats.days).toHaveLength(30);
    expect(stats.days.every((d) => d.plays === 0 && d.listeners === 0)).toBe(true);
    expect(stats.topTracks).toEqual([]);
  });

  it("answers 404 for a track that is not the caller's", async () => {
    const artist = await registerAccount("artist");
    const other = await insertTrack((await insertArtist()).id);
    await expectProblem(await artist.client.get(`${STATS}?trackId=${other.id}`), 404, "NOT_FOUND");
  });

  it("answers 400 to a range it cannot read", async () => {
    const artist = await registerAccount("artist");
    for (const query of [
      "from=2026-11-27&to=2026-11-01",
      "from=2024-01-01&to=2026-01-01",
      "from=yesterday",
      "to=2026-13-40",
      "trackId=nope",
    ]) {
      await expectProblem(await artist.client.get(`${STATS}?${query}`), 400, "VALIDATION_FAILED");
    }
  });

  it("is for artists only", async () => {
    const user = await registerAccount("user");
    expect((await user.client.get(STATS)).status).toBe(403);
  });
});
