import { trackKeys } from "@edge-music/contracts";
import { tracks, trackUploads } from "@edge-music/db";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../../../src/env.ts";
import { abortExpiredUploads } from "../../../src/features/tracks/direct-upload/service.ts";
import { createLogger } from "../../../src/logger.ts";
import { Client, type Registered, registerAccount } from "../../support/auth.ts";
import { CLOSED_PORT, testBindings } from "../../support/env.ts";
import { httpDb, insertAlbum, withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";
import { conversionJob } from "../../support/queue.ts";
import { artist, MIB, S3_BINDINGS, sendParts, start, storage, wav } from "./support.ts";

const complete = (account: Registered, id: string, parts: unknown) =>
  account.client.post(`/api/v1/uploads/${id}/complete`, { parts });

const uploadRow = async (id: string) =>
  (await withDb((db) => db.select().from(trackUploads).where(eq(trackUploads.id, id))))[0];

describe("direct uploads", () => {
  it("takes a file in presigned parts straight to storage, then makes the track and its job", async () => {
    const account = await artist();
    const album = await insertAlbum(account.id);
    const file = wav(9 * MIB);
    const started = await start(account, file, { albumId: album.id });
    expect(started.partSize).toBe(8 * MIB);
    expect(started.parts.map((p) => p.partNumber)).toEqual([1, 2]);
    expect(Date.parse(started.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    // The URL names the part and carries its own signature, valid for the upload's day.
    const url = new URL(started.parts[0]?.url ?? "");
    expect(url.searchParams.get("partNumber")).toBe("1");
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("86400");

    const parts = await sendParts(started, file);
    const done = await complete(account, started.uploadId, parts);
    expect(done.status).toBe(202);
    expect(await done.json()).toMatchObject({
      id: started.uploadId,
      title: "Long take",
      albumId: album.id,
      processingStatus: "PROCESSING",
    });
    const key = trackKeys(started.uploadId).source("Long_Take_master_.wav");
    const stored = await storage().head(key);
    expect(stored?.size).toBe(file.length);
    expect(await conversionJob(started.uploadId, "Long_Take_master_.wav")).toBeDefined();
    expect(await uploadRow(started.uploadId)).toBeUndefined();
    // Completed once: the upload is gone.
    await expectProblem(await complete(account, started.uploadId, parts), 404, "NOT_FOUND");
  });

  it("makes the track with the visibility asked for at the start: private, found by nobody else", async () => {
    const account = await artist();
    const file = wav(6 * MIB);
    const started = await start(account, file, { visibility: "private" });
    expect((await uploadRow(started.uploadId))?.visibility).toBe("private");
    const done = await complete(account, started.uploadId, await sendParts(started, file));
    expect(done.status).toBe(202);
    expect(await done.json()).toMatchObject({ id: started.uploadId, visibility: "private" });
    await expectProblem(
      await new Client().get(`/api/v1/tracks/${started.uploadId}`),
      404,
      "NOT_FOUND",
    );
  });

  it("answers 503 and keeps nothing when the queue refuses the job, as the form upload does", async () => {
    const account = await artist();
    const file = wav(6 * MIB);
    const started = await start(account, file);
    const parts = await sendParts(started, file);
    const offline = new Client(account.client.ip, {
      ...S3_BINDINGS,
      REDIS_URL: `redis://127.0.0.1:${CLOSED_PORT}`,
    });
    offline.jar.set("access_token", account.client.jar.get("access_token") ?? "", "/api/v1");
    const refused = await offline.post(`/api/v1/uploads/${started.uploadId}/complete`, { parts });
    await expectProblem(refused, 503, "SERVICE_UNAVAILABLE");
    const key = trackKeys(started.uploadId).source("Long_Take_master_.wav");
    expect(await storage().head(key)).toBeFalsy();
    const rows = await withDb((db) =>
      db.select().from(tracks).where(eq(tracks.id, started.uploadId)),
    );
    expect(rows).toEqual([]);
  });

  it("refuses what a form upload refuses: too large (413), not audio by its type (415) or its bytes (415), another's album (404)", async () => {
    const account = await artist();
    const post = (body: object) =>
      account.client.post("/api/v1/uploads", {
        title: "t",
        filename: "a.wav",
        contentType: "audio/wav",
        size: 1000,
        ...body,
      });
    await expectProblem(await post({ size: 2 * 1024 ** 3 + 1 }), 413, "PAYLOAD_TOO_LARGE");
    await expectProblem(await post({ contentType: "text/plain" }), 415, "UNSUPPORTED_MEDIA_TYPE");
    await expectProblem(await post({ size: 0 }), 400, "VALIDATION_FAILED");
    await expectProblem(await post({ title: "" }), 400, "VALIDATION_FAILED");
    const stranger = await registerAccount("artist");
    const theirs = await insertAlbum(stranger.id);
    await expectProblem(await post({ albumId: theirs.id }), 404, "NOT_FOUND");
    await expectProblem(await post({ visibility: "hidden" }), 400, "VALIDATION_FAILED");

    // Bytes that are not audio, whatever was announced: the stored file is deleted with its upload.
    const text = new TextEncoder().encode("just some text, not audio at all".repeat(40));
    const started = await start(account, text, { size: text.length });
    const refused = await complete(account, started.uploadId, await sendParts(started, text));
    const problem = await expectProblem(refused, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(problem.detail).toBe(
      "This file is not audio we can read: it looks like text. Upload MP3, WAV, FLAC, M4A, OGG or Opus audio.",
    );
    expect(await uploadRow(started.uploadId)).toBeUndefined();
    const key = trackKeys(started.uploadId).source("Long_Take_master_.wav");
    expect(await storage().head(key)).toBeNull();
  });

  it("answers 400 when storage refuses the parts, and keeps the upload for a corrected try", async () => {
    const account = await artist();
    const file = wav(64 * 1024);
    const started = await start(account, file);
    const parts = await sendParts(started, file);
    const wrong = await expectProblem(
      await complete(account, started.uploadId, [{ partNumber: 1, etag: '"0000"' }]),
      400,
      "VALIDATION_FAILED",
    );
    expect(JSON.stringify(wrong.errors)).toMatch(/invalidpart/i);
    await expectProblem(
      await complete(account, started.uploadId, [
        { partNumber: 2, etag: "a" },
        { partNumber: 1, etag: "b" },
      ]),
      400,
      "VALIDATION_FAILED",
    );
    expect((await complete(account, started.uploadId, parts)).status).toBe(202);
  });

  it("aborts on request, and is the owner's alone", async () => {
    const account = await artist();
    const file = wav(64 * 1024);
    const started = await start(account, file);
    const other = await registerAccount("artist", new Client(undefined, S3_BINDINGS));
    const listener = await registerAccount("user", new Client(undefined, S3_BINDINGS));
    const path = `/api/v1/uploads/${started.uploadId}`;
    await expectProblem(await other.client.delete(path), 403, "FORBIDDEN");
    await expectProblem(await listener.client.delete(path), 403, "FORBIDDEN");
    await expectProblem(await new Client(undefined, S3_BINDINGS).delete(path), 401, "UNAUTHORIZED");
    expect((await account.client.delete(path)).status).toBe(204);
    expect(await uploadRow(started.uploadId)).toBeUndefined();
    await expectProblem(await account.client.delete(path), 404, "NOT_FOUND");
    // Its part URLs no longer take bytes.
    const late = await fetch(started.parts[0]?.url ?? "", { method: "PUT", body: file.slice() });
    expect(late.ok).toBe(false);
  });

  it("aborts the uploads left incomplete past their day (the hourly trigger)", async () => {
    const account = await artist();
    const started = await start(account, wav(64 * 1024));
    await withDb((db) =>
      db
        .update(trackUploads)
        .set({ expiresAt: sql`now() - interval '1 minute'` })
        .where(eq(trackUploads.id, started.uploadId)),
    );
    const env = parseEnv(testBindings(S3_BINDINGS));
    const aborted = await abortExpiredUploads({
      db: httpDb(),
      env,
      log: createLogger(),
      now: new Date(),
    });
    expect(aborted).toBeGreaterThanOrEqual(1);
    expect(await uploadRow(started.uploadId)).toBeUndefined();
  });

  it("answers 503 where no S3 API is configured for the bucket", async () => {
    const account = await registerAccount(
      "artist",
      new Client(undefined, { S3_ENDPOINT: undefined }),
    );
    await expectProblem(
      await account.client.post("/api/v1/uploads", {
        title: "t",
        filename: "a.wav",
        contentType: "audio/wav",
        size: 1000,
      }),
      503,
      "SERVICE_UNAVAILABLE",
    );
  });
});
