import { listeningHistory } from "@edge-music/db";
import { describe, expect, it } from "vitest";
import { Client } from "../support/auth.ts";
import { insertArtist, insertTrack, insertUser, withDb } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";

interface Related {
  id: string;
  coListeners: number;
  artist: { id: string };
}

/** Listens as the history keeps them: one row per play. */
const played = (userId: string, ...trackIds: string[]) =>
  withDb((db) =>
    db
      .insert(listeningHistory)
      .values(trackIds.map((trackId) => ({ id: crypto.randomUUID(), userId, trackId }))),
  );

async function related(id: string, query = ""): Promise<Related[]> {
  const response = await new Client().get(`/api/v1/tracks/${id}/related${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Related[];
}

describe("GET /tracks/{id}/related", () => {
  it("ranks what the track's listeners also played by how many of them did", async () => {
    const artist = await insertArtist();
    const [seed, both, one, converting, unrelated] = await Promise.all([
      insertTrack(artist.id),
      insertTrack(artist.id),
      insertTrack(artist.id),
      insertTrack(artist.id, { processingStatus: "PROCESSING" }),
      insertTrack(artist.id),
    ]);
    const [a, b, c, stranger] = await Promise.all([
      insertUser(),
      insertUser(),
      insertUser(),
      insertUser(),
    ]);
    await played(a.id, seed.id, both.id, converting.id);
    await played(b.id, seed.id, both.id);
    // One listener replaying a track a dozen times counts once.
    await played(c.id, seed.id, ...Array.from({ length: 12 }, () => one.id));
    // Played only by someone who never played the seed.
    await played(stranger.id, unrelated.id, unrelated.id);

    const answer = await related(seed.id);
    expect(answer.map((t) => [t.id, t.coListeners])).toEqual([
      [both.id, 2],
      [one.id, 1],
    ]);
    expect(answer[0]?.artist.id).toBe(artist.id);
    expect((await related(seed.id, "?limit=1")).map((t) => t.id)).toEqual([both.id]);
  });

  it("is empty for a track nobody played with another, and 404 for one that is not READY", async () => {
    const artist = await insertArtist();
    const lonely = await insertTrack(artist.id);
    expect(await related(lonely.id)).toEqual([]);
    const converting = await insertTrack(artist.id, { processingStatus: "PROCESSING" });
    const client = new Client();
    await expectProblem(
      await client.get(`/api/v1/tracks/${converting.id}/related`),
      404,
      "NOT_FOUND",
    );
    await expectProblem(
      await client.get(`/api/v1/tracks/${crypto.randomUUID()}/related`),
      404,
      "NOT_FOUND",
    );
    for (const query of ["?limit=0", "?limit=51", "?limit=x"]) {
      await expectProblem(
        await client.get(`/api/v1/tracks/${lonely.id}/related${query}`),
        400,
        "VALIDATION_FAILED",
      );
    }
  });
});
