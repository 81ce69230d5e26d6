import { listeningHistory } from "@edge-music/db";
import { describe, expect, it } from "vitest";
import { uuidv7 } from "../../src/features/history/uuidv7.ts";
import { registerAccount } from "../support/auth.ts";
import { insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { BAD_PAGE_QUERIES } from "../support/paging.ts";
import { expectProblem } from "../support/problem.ts";
import { artistWithTracks, HISTORY, historyOf, listen, rowsOf } from "./support.ts";

describe("GET /history pages", () => {
  it("pages through with limit 1, newest first, without repeats or gaps", async () => {
    const user = await registerAccount("user");
    const { tracks } = await artistWithTracks(4);
    for (const track of tracks) await listen(user.client, track.id);
    await listen(user.client, tracks[1]?.id ?? "");
    const expected = [tracks[1], tracks[3], tracks[2], tracks[0]].map((t) => t?.id);
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const entries = await historyOf(user.client, `?page=${page}&limit=1`);
      expect(entries.length).toBe(1);
      seen.push(entries[0]?.trackId ?? "");
    }
    expect(seen).toEqual(expected);
    expect(await historyOf(user.client, "?page=5&limit=1")).toEqual([]);
    expect((await historyOf(user.client, "?page=2&limit=3")).map((e) => e.trackId)).toEqual([
      expected[3],
    ]);
  });

  it("breaks ties of listenedAt by id, so equal times page stably", async () => {
    const user = await registerAccount("user");
    const { tracks } = await artistWithTracks(5);
    const at = new Date("2026-01-01T12:00:00.000Z");
    const rows = tracks.map((t, i) => ({
      id: uuidv7(at.getTime() + i),
      userId: user.id,
      trackId: t.id,
      listenedAt: at,
    }));
    await withDb((db) => db.insert(listeningHistory).values(rows));
    const byIdDesc = rows.map((r) => r.id).reverse();
    const pages: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const [entry] = await historyOf(user.client, `?page=${page}&limit=1`);
      pages.push(entry?.id ?? "");
    }
    expect(pages).toEqual(byIdDesc);
    expect((await historyOf(user.client)).map((e) => e.id)).toEqual(byIdDesc);
  });

  it("answers 20 entries by default and up to 100 with limit", async () => {
    const user = await registerAccount("user");
    const artist = await insertArtist();
    const tracks = await Promise.all(Array.from({ length: 21 }, () => insertTrack(artist.id)));
    const start = Date.now() - 60_000;
    await withDb((db) =>
      db.insert(listeningHistory).values(
        tracks.map((t, i) => ({
          id: uuidv7(start + i),
          userId: user.id,
          trackId: t.id,
          listenedAt: new Date(start + i),
        })),
      ),
    );
    const firstPage = await historyOf(user.client);
    expect(firstPage.length).toBe(20);
    expect(firstPage[0]?.trackId).toBe(tracks[20]?.id);
    expect((await historyOf(user.client, "?page=2")).map((e) => e.trackId)).toEqual([
      tracks[0]?.id,
    ]);
    expect((await historyOf(user.client, "?limit=100")).length).toBe(21);
  });
});

describe("history errors", () => {
  it("404s a listen of an unknown track and records nothing", async () => {
    const user = await registerAccount("user");
    const response = await user.client.post(`${HISTORY}/tracks/${crypto.randomUUID()}`);
    await expectProblem(response, 404, "NOT_FOUND");
    expect(await rowsOf(user.id)).toEqual([]);
  });

  it.each(["PROCESSING", "FAILED"] as const)("404s a listen of a %s track", async (status) => {
    const user = await registerAccount("user");
    const artist = await insertArtist();
    const track = await insertTrack(artist.id, { processingStatus: status });
    const response = await user.client.post(`${HISTORY}/tracks/${track.id}`);
    await expectProblem(response, 404, "NOT_FOUND");
    expect(await rowsOf(user.id)).toEqual([]);
  });

  it.each([
    ["POST", "not-a-uuid"],
    ["DELETE", "not-a-uuid"],
    ["POST", "0195f3a4-8c1e-7d2a-9b3c-4d5e6f70819"],
    ["DELETE", "0195f3a48c1e7d2a9b3c4d5e6f708192x"],
  ])("400s %s of a track id %s", async (method, trackId) => {
    const user = await registerAccount("user");
    const response = await user.client.request(method, `${HISTORY}/tracks/${trackId}`);
    const body = await expectProblem(response, 400, "VALIDATION_FAILED");
    expect(body.errors).toEqual([expect.objectContaining({ path: "param.trackId" })]);
  });

  it.each(BAD_PAGE_QUERIES)("400s GET /history?%s", async (query, path) => {
    const user = await registerAccount("user");
    const body = await expectProblem(
      await user.client.get(`${HISTORY}?${query}`),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors).toEqual([expect.objectContaining({ path })]);
  });
});
