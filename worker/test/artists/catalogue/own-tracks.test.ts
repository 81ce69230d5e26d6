import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../../support/auth.ts";
import { insertTrack } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";

const PATH = "/api/v1/artists/me/tracks";

type Own = {
  id: string;
  processingStatus: string;
  processingError: string | null;
  processingProgress: number;
  processingAttempts: number;
};

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

describe("GET /api/v1/artists/me/tracks", () => {
  it("lists the caller's tracks in every state, newest first, with the conversion record", async () => {
    const artist = await registerAccount("artist");
    const ready = await insertTrack(artist.id, { createdAt: at(3) });
    const failed = await insertTrack(artist.id, {
      createdAt: at(2),
      processingStatus: "FAILED",
      processingError: "The file could not be decoded as audio.",
      processingAttempts: 1,
    });
    const converting = await insertTrack(artist.id, {
      createdAt: at(1),
      processingStatus: "PROCESSING",
      processingProgress: 40,
    });
    await insertTrack((await registerAccount("artist")).id);

    const response = await artist.client.get(PATH);
    expect(response.status).toBe(200);
    const tracks = (await response.json()) as Own[];
    expect(tracks.map((t) => t.id)).toEqual([converting.id, failed.id, ready.id]);
    expect(tracks[0]).toMatchObject({ processingStatus: "PROCESSING", processingProgress: 40 });
    expect(tracks[1]).toMatchObject({
      processingStatus: "FAILED",
      processingError: "The file could not be decoded as audio.",
      processingAttempts: 1,
    });
    expect(JSON.stringify(tracks)).not.toMatch(/sourceKey|source_key/);
  });

  it("filters by status and pages", async () => {
    const artist = await registerAccount("artist");
    const failed = await insertTrack(artist.id, { processingStatus: "FAILED", createdAt: at(5) });
    const newer = await insertTrack(artist.id, { processingStatus: "FAILED", createdAt: at(4) });
    await insertTrack(artist.id, { processingStatus: "READY" });
    const only = async (query: string) =>
      ((await (await artist.client.get(`${PATH}?${query}`)).json()) as Own[]).map((t) => t.id);
    expect(await only("status=FAILED")).toEqual([newer.id, failed.id]);
    expect(await only("status=FAILED&limit=1&page=2")).toEqual([failed.id]);
    expect(await only("status=PROCESSING")).toEqual([]);
    await expectProblem(await artist.client.get(`${PATH}?status=DONE`), 400, "VALIDATION_FAILED");
    await expectProblem(await artist.client.get(`${PATH}?limit=0`), 400, "VALIDATION_FAILED");
  });

  it("is the signed-in artist's alone", async () => {
    await expectProblem(await new Client().get(PATH), 401, "UNAUTHORIZED");
    const listener = await registerAccount("user");
    await expectProblem(await listener.client.get(PATH), 403, "FORBIDDEN");
  });
});
