import { trackLikes } from "@edge-music/db";
import { describe, expect, it } from "vitest";
import { deliver, everyMinute, play } from "../../plays/support.ts";
import { registerAccount } from "../../support/auth.ts";
import { insertArtist, insertTrack, insertUser, withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";

const TRENDING = "/api/v1/tracks/trending";

interface Trending {
  id: string;
  rank: number;
  score: number;
  listeners: number;
  likes: number;
  plays: number;
}

/** The ranking as a signed-in caller reads it (never an edge copy). */
async function trending(window = "day") {
  const user = await registerAccount("user");
  const response = await user.client.get(`${TRENDING}?window=${window}&limit=100`);
  expect(response.status).toBe(200);
  return (await response.json()) as Trending[];
}

const listeners = (n: number) => Array.from({ length: n }, () => `u:${crypto.randomUUID()}`);

describe("GET /tracks/trending", () => {
  it("ranks a track with more listeners above one with fewer, once the cron has run", async () => {
    const artist = await insertArtist();
    const [few, many] = [await insertTrack(artist.id), await insertTrack(artist.id)];
    await deliver([
      ...listeners(3).map((l) => play(many.id, l)),
      ...listeners(1).map((l) => play(few.id, l)),
    ]);
    await everyMinute();
    const ranked = await trending();
    const rankOf = (id: string) => ranked.find((t) => t.id === id);
    expect(rankOf(many.id)?.listeners).toBe(3);
    expect(rankOf(few.id)?.listeners).toBe(1);
    expect(rankOf(many.id)?.rank ?? 0).toBeLessThan(rankOf(few.id)?.rank ?? 0);
    expect((await trending("week")).some((t) => t.id === many.id)).toBe(true);
  });

  it("moves a track no more for one network playing it a thousand times than for one listener", async () => {
    const artist = await insertArtist();
    const [replayed, twoListeners] = [await insertTrack(artist.id), await insertTrack(artist.id)];
    const network = `n:${"cd".repeat(16)}`;
    const start = Date.now() - 20 * 3600 * 1000;
    // A thousand reports over ~17 hours, one a minute: every one 10 minutes apart counts as a play.
    const replays = Array.from({ length: 1000 }, (_, i) =>
      play(replayed.id, network, new Date(start + i * 60_000)),
    );
    await deliver(replays);
    await deliver(listeners(2).map((l) => play(twoListeners.id, l)));
    await everyMinute();
    const ranked = await trending();
    const of = (id: string) => ranked.find((t) => t.id === id);
    expect(of(replayed.id)?.plays).toBeGreaterThan(50);
    expect(of(replayed.id)?.listeners).toBeLessThanOrEqual(2);
    expect(of(twoListeners.id)?.rank ?? 0).toBeLessThan(of(replayed.id)?.rank ?? 0);
  });

  it("counts likes, and never lists a track that is unlisted, private or not READY", async () => {
    const artist = await insertArtist();
    const liked = await insertTrack(artist.id);
    const hidden = [
      await insertTrack(artist.id, { visibility: "unlisted" }),
      await insertTrack(artist.id, { visibility: "private" }),
    ];
    const fan = await insertUser();
    await withDb((db) =>
      db
        .insert(trackLikes)
        .values([liked, ...hidden].map((t) => ({ userId: fan.id, trackId: t.id }))),
    );
    await deliver(hidden.flatMap((t) => listeners(5).map((l) => play(t.id, l))));
    await everyMinute();
    const ranked = await trending();
    expect(ranked.find((t) => t.id === liked.id)?.likes).toBe(1);
    for (const track of hidden) expect(ranked.some((t) => t.id === track.id)).toBe(false);
  });

  it("answers 400 to a window or limit it does not know", async () => {
    for (const query of ["window=month", "limit=0", "limit=101", "limit=x"]) {
      const user = await registerAccount("user");
      await expectProblem(await user.client.get(`${TRENDING}?${query}`), 400, "VALIDATION_FAILED");
    }
  });
});
