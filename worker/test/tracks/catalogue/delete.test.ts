import { listeningHistory, trackFiles, tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createRequestRedis } from "../../../src/connections/redis.ts";
import { deleteTrack } from "../../../src/features/tracks/catalogue/service.ts";
import { createLogger } from "../../../src/logger.ts";
import type { ObjectStorage } from "../../../src/storage/index.ts";
import { Client, registerAccount } from "../../support/auth.ts";
import { CLOSED_PORT } from "../../support/env.ts";
import { httpDb, insertTrack, insertUser, withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";
import { conversionJob, waitingConversionJob } from "../../support/queue.ts";
import { fetchMedia, form, json, png, storage } from "./support.ts";

const FILES = [
  "audio/128k.opus",
  "hls/master.m3u8",
  "hls/128/index.m3u8",
  "hls/128/segment_00000.m4s",
];

/** Objects as the transcoder leaves them, with their file records and a listen of the track. */
async function converted(trackId: string) {
  const keys = FILES.map((file) => `tracks/${trackId}/${file}`);
  for (const key of keys) await storage().put(key, `bytes of ${key}`);
  const user = await insertUser();
  await withDb(async (db) => {
    await db.insert(trackFiles).values(
      keys.map((storageKey) => ({
        trackId,
        storageKey,
        kind: "hls_segment" as const,
        contentType: "application/octet-stream",
        sizeBytes: 10,
      })),
    );
    await db.insert(listeningHistory).values({ id: crypto.randomUUID(), userId: user.id, trackId });
  });
  return keys;
}

const keysUnder = async (trackId: string) => (await storage().list(`tracks/${trackId}/`)).keys;

const rowsOf = (trackId: string) =>
  withDb(async (db) => ({
    tracks: await db.select().from(tracks).where(eq(tracks.id, trackId)),
    files: await db.select().from(trackFiles).where(eq(trackFiles.trackId, trackId)),
    listens: await db.select().from(listeningHistory).where(eq(listeningHistory.trackId, trackId)),
  }));

describe("DELETE /api/v1/tracks/:id", () => {
  it("deletes the rows, every object under tracks/<id>/ and the cover; nothing else", async () => {
    const owner = await registerAccount("artist");
    const track = await insertTrack(owner.id);
    const neighbour = await insertTrack(owner.id);
    await converted(track.id);
    const kept = await converted(neighbour.id);
    const path = `/api/v1/tracks/${track.id}`;
    const { cover } = await json<{ cover: string }>(
      await owner.client.form("PUT", path, form({ cover: [png(), "c.png"] })),
    );

    const response = await owner.client.delete(path);
    expect(response.status).toBe(204);

    expect(await keysUnder(track.id)).toEqual([]);
    expect(await rowsOf(track.id)).toEqual({ tracks: [], files: [], listens: [] });
    expect((await fetchMedia(owner.client, cover)).status).toBe(404);
    await expectProblem(await owner.client.get(path), 404, "NOT_FOUND");
    expect((await keysUnder(neighbour.id)).sort()).toEqual([...kept].sort());
  });

  it("deletes a track that is still converting, and its waiting conversion job", async () => {
    const owner = await registerAccount("artist");
    const track = await insertTrack(owner.id, {
      processingStatus: "PROCESSING",
      sourceFileName: "take.wav",
    });
    await waitingConversionJob(track, "take.wav");
    expect(await conversionJob(track.id, "take.wav")).toBeDefined();
    expect((await owner.client.delete(`/api/v1/tracks/${track.id}`)).status).toBe(204);
    expect((await rowsOf(track.id)).tracks).toEqual([]);
    expect(await conversionJob(track.id, "take.wav")).toBeUndefined();
  });

  it("403 for another artist's track, which keeps its rows and objects", async () => {
    const owner = await registerAccount("artist");
    const track = await insertTrack(owner.id);
    const keys = await converted(track.id);
    const stranger = await registerAccount("artist");
    await expectProblem(
      await stranger.client.delete(`/api/v1/tracks/${track.id}`),
      403,
      "FORBIDDEN",
    );
    expect((await rowsOf(track.id)).tracks).toHaveLength(1);
    expect((await keysUnder(track.id)).sort()).toEqual([...keys].sort());
  });

  it("404 for an unknown track, 400 for an id that is not a UUID", async () => {
    const owner = await registerAccount("artist");
    await expectProblem(
      await owner.client.delete(`/api/v1/tracks/${crypto.randomUUID()}`),
      404,
      "NOT_FOUND",
    );
    await expectProblem(await owner.client.delete("/api/v1/tracks/abc"), 400, "VALIDATION_FAILED");
    await expectProblem(
      await new Client().delete(`/api/v1/tracks/${crypto.randomUUID()}`),
      401,
      "UNAUTHORIZED",
    );
  });

  it("still deletes the row when storage and Redis fail, and logs the failures", async () => {
    const owner = await registerAccount("artist");
    const track = await insertTrack(owner.id, { sourceFileName: "take.wav" });
    const failing = new Proxy(storage(), {
      get: (target, name) =>
        name === "list" || name === "delete"
          ? () => Promise.reject(new Error("storage is down"))
          : Reflect.get(target, name),
    }) as ObjectStorage;
    const logged: string[] = [];
    const log = {
      ...createLogger(),
      error: (message: string) => void logged.push(message),
      warn: (message: string) => void logged.push(message),
    };
    const principal = { kind: "artist" as const, id: owner.id, sessionId: "s" };
    const redis = createRequestRedis(`redis://127.0.0.1:${CLOSED_PORT}`);
    await deleteTrack({ db: httpDb(), redis, storage: failing, log, principal }, track.id);
    expect((await rowsOf(track.id)).tracks).toEqual([]);
    expect(logged).toContain("deleting a track's files failed");
    expect(logged).toContain("removing the conversion jobs of deleted tracks failed");
  });
});
