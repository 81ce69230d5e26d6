import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { app, Client, registerAccount } from "../../support/auth.ts";
import { CLOSED_PORT, send, testBindings } from "../../support/env.ts";
import { insertTrack, withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";
import { conversionJob, waitingConversionJob } from "../../support/queue.ts";

const FILE = "take one.wav";

/** A track whose conversion failed for good, its upload kept. */
const failedTrack = (artistId: string) =>
  insertTrack(artistId, {
    processingStatus: "FAILED",
    processingError: "storage timed out",
    processingAttempts: 5,
    processingStartedAt: new Date(Date.now() - 60_000),
    processingFinishedAt: new Date(),
    sourceKey: `tracks/${crypto.randomUUID()}/source/${FILE}`,
    sourceFileName: FILE,
  });

const rowOf = async (id: string) =>
  (await withDb((db) => db.select().from(tracks).where(eq(tracks.id, id))))[0];

describe("POST /api/v1/tracks/{id}/retry", () => {
  it("queues a failed track again with a clean record, replacing its earlier job", async () => {
    const artist = await registerAccount("artist");
    const track = await failedTrack(artist.id);
    // Stands for the earlier round's job, still held under the same id.
    await waitingConversionJob(track, FILE);

    const response = await artist.client.post(`/api/v1/tracks/${track.id}/retry`);
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({
      id: track.id,
      processingStatus: "PROCESSING",
      processingError: null,
      processingAttempts: 0,
      processingProgress: 0,
    });
    const job = await conversionJob(track.id, FILE);
    expect(job?.data).toMatchObject({ trackId: track.id, sourceKey: track.sourceKey });
    expect(job?.opts.delay ?? 0).toBe(0);
    expect(job?.opts.attempts).toBe(5);
  });

  it("refuses a track that has not failed, or whose upload is gone (409)", async () => {
    const artist = await registerAccount("artist");
    for (const processingStatus of ["READY", "PROCESSING"] as const) {
      const track = await insertTrack(artist.id, { processingStatus, sourceFileName: FILE });
      await expectProblem(
        await artist.client.post(`/api/v1/tracks/${track.id}/retry`),
        409,
        "CONFLICT",
      );
      expect((await rowOf(track.id))?.processingStatus).toBe(processingStatus);
    }
    const gone = await insertTrack(artist.id, {
      processingStatus: "FAILED",
      processingError: "x",
      sourceKey: null,
      sourceFileName: FILE,
    });
    const problem = await expectProblem(
      await artist.client.post(`/api/v1/tracks/${gone.id}/retry`),
      409,
      "CONFLICT",
    );
    expect(problem.detail).toMatch(/upload it again/);
    expect((await rowOf(gone.id))?.processingStatus).toBe("FAILED");
  });

  it("refuses a file that cannot be converted, saying why and to upload another (409)", async () => {
    const artist = await registerAccount("artist");
    const reason = "The file could not be decoded as audio: its audio format is not supported.";
    const track = await insertTrack(artist.id, {
      processingStatus: "FAILED",
      processingError: reason,
      processingAttempts: 1,
      sourceUnreadable: true,
      sourceKey: `tracks/${crypto.randomUUID()}/source/${FILE}`,
      sourceFileName: FILE,
    });
    const own = await artist.client.get(`/api/v1/tracks/${track.id}`);
    expect(await own.json()).toMatchObject({ sourceUnreadable: true, processingError: reason });
    const problem = await expectProblem(
      await artist.client.post(`/api/v1/tracks/${track.id}/retry`),
      409,
      "CONFLICT",
    );
    expect(problem.detail).toContain(reason);
    expect(problem.detail).toMatch(/upload another file/);
    expect(problem.sourceUnreadable).toBe(true);
    expect(await rowOf(track.id)).toMatchObject({
      processingStatus: "FAILED",
      processingError: reason,
      processingAttempts: 1,
    });
    expect(await conversionJob(track.id, FILE)).toBeFalsy();
  });

  it("is the owner's alone: 403 for another artist or a listener, 404 unknown, 401 anonymous", async () => {
    const owner = await registerAccount("artist");
    const track = await failedTrack(owner.id);
    const path = `/api/v1/tracks/${track.id}/retry`;
    await expectProblem(
      await (await registerAccount("artist")).client.post(path),
      403,
      "FORBIDDEN",
    );
    await expectProblem(await (await registerAccount("user")).client.post(path), 403, "FORBIDDEN");
    await expectProblem(await new Client().post(path), 401, "UNAUTHORIZED");
    await expectProblem(
      await owner.client.post(`/api/v1/tracks/${crypto.randomUUID()}/retry`),
      404,
      "NOT_FOUND",
    );
    await expectProblem(
      await owner.client.post("/api/v1/tracks/abc/retry"),
      400,
      "VALIDATION_FAILED",
    );
    expect(await rowOf(track.id)).toMatchObject({
      processingStatus: "FAILED",
      processingAttempts: 5,
    });
  });

  it("answers 503 when the queue is unreachable, and leaves the track as it was", async () => {
    const artist = await registerAccount("artist");
    const track = await failedTrack(artist.id);
    const cookie = ["access_token", "refresh_token"]
      .map((name) => `${name}=${artist.client.jar.get(name)}`)
      .join("; ");
    const response = await send(
      app,
      `/api/v1/tracks/${track.id}/retry`,
      { method: "POST", headers: { cookie } },
      { ...testBindings(), REDIS_URL: `redis://127.0.0.1:${CLOSED_PORT}` },
    );
    await expectProblem(response, 503, "SERVICE_UNAVAILABLE");
    expect(await rowOf(track.id)).toMatchObject({
      processingStatus: "FAILED",
      processingError: "storage timed out",
      processingAttempts: 5,
      processingFinishedAt: track.processingFinishedAt,
    });
  });
});
