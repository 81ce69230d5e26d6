import { trackKeys } from "@edge-music/contracts";
import { trackUploads } from "@edge-music/db";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { parseEnv } from "../../../src/env.ts";
import { directUploadStore, s3ApiConfig } from "../../../src/storage/direct-upload.ts";
import { Client, registerAccount } from "../../support/auth.ts";
import { testBindings } from "../../support/env.ts";
import { withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";
import { conversionJob } from "../../support/queue.ts";
import {
  artist,
  MIB,
  putPart,
  S3_BINDINGS,
  sendPartsViaApi,
  start,
  storage,
  wav,
} from "./support.ts";

/** A stream of `bytes` in chunks of `chunk`, read as the receiver pulls (never all at once). */
function chunked(bytes: Uint8Array, chunk: number) {
  let at = 0;
  const pulls = { count: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      pulls.count++;
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
  return { stream, pulls };
}

describe("direct-upload parts sent through the Worker", () => {
  it("takes every part on the API's own origin, then completes the upload into a track", async () => {
    const account = await artist();
    const file = wav(9 * MIB);
    const started = await start(account, file);
    expect(started.parts.map((p) => p.partNumber)).toEqual([1, 2]);

    const parts = await sendPartsViaApi(account, started, file);
    expect(parts.map((p) => p.partNumber)).toEqual([1, 2]);
    for (const { etag } of parts) expect(etag).toMatch(/^"?[0-9a-f]{32}"?$/);
    // Storage's ETag of a part is the MD5 of its bytes.
    const md5 = async (bytes: Uint8Array<ArrayBuffer>) =>
      [...new Uint8Array(await crypto.subtle.digest("MD5", bytes))]
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("");
    expect(parts[1]?.etag.replaceAll('"', "")).toBe(await md5(file.slice(8 * MIB)));

    const done = await account.client.post(`/api/v1/uploads/${started.uploadId}/complete`, {
      parts,
    });
    expect(done.status).toBe(202);
    expect(await done.json()).toMatchObject({
      id: started.uploadId,
      processingStatus: "PROCESSING",
    });
    const key = trackKeys(started.uploadId).source("Long_Take_master_.wav");
    const stored = await storage().get(key);
    expect(stored?.size).toBe(file.length);
    const bytes = new Uint8Array(await new Response(stored?.body).arrayBuffer());
    // Compared by digest: a failing toEqual of 9 MiB would print the whole array.
    expect(await md5(bytes)).toBe(await md5(file));
    expect(await conversionJob(started.uploadId, "Long_Take_master_.wav")).toBeDefined();
  });

  it("streams a part to storage as it arrives, and a part sent again replaces the first", async () => {
    const account = await artist();
    const file = wav(9 * MIB);
    const started = await start(account, file);
    const first = file.slice(0, 8 * MIB);
    const { stream, pulls } = chunked(first, 256 * 1024);
    // The app runs in this isolate: watch its request to storage start. Were the part buffered,
    // all 32 chunks would have been read by then; streamed, only the first few have.
    const realFetch = globalThis.fetch;
    const atUploadPart: Array<{ pulled: number; streamed: boolean }> = [];
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      if (input instanceof Request && new URL(input.url).searchParams.has("partNumber")) {
        atUploadPart.push({ pulled: pulls.count, streamed: input.body instanceof ReadableStream });
      }
      return realFetch(input, init);
    });
    let sent: Response;
    try {
      sent = await putPart(account.client, started.uploadId, 1, stream, first.length);
    } finally {
      spy.mockRestore();
    }
    expect(sent.status).toBe(200);
    expect(atUploadPart).toHaveLength(1);
    expect(atUploadPart[0]?.streamed).toBe(true);
    expect(atUploadPart[0]?.pulled).toBeLessThanOrEqual(4);
    expect(pulls.count).toBe(32);
    // The part sent again, the same bytes: the same ETag, and the upload completes.
    const again = await putPart(account.client, started.uploadId, 1, first);
    const one = (await again.json()) as { partNumber: number; etag: string };
    expect(one).toEqual(await sent.json());
    const last = await putPart(account.client, started.uploadId, 2, file.slice(8 * MIB));
    const two = (await last.json()) as { partNumber: number; etag: string };
    const done = await account.client.post(`/api/v1/uploads/${started.uploadId}/complete`, {
      parts: [one, two],
    });
    expect(done.status).toBe(202);
  });

  it("takes only the part's exact length, declared: 400 otherwise, before reading the body", async () => {
    const account = await artist();
    const file = wav(9 * MIB);
    const started = await start(account, file);
    const id = started.uploadId;
    const lastPart = file.slice(8 * MIB);
    // The last part is the rest (1 MiB); the first is a whole part (8 MiB).
    const short = await expectProblem(
      await putPart(account.client, id, 1, lastPart),
      400,
      "VALIDATION_FAILED",
    );
    expect(short.errors).toEqual([
      expect.objectContaining({
        path: "header.content-length",
        message: `part 1 must be exactly ${8 * MIB} bytes, not ${MIB}`,
      }),
    ]);
    await expectProblem(
      await putPart(account.client, id, 2, file.slice(0, MIB + 1)),
      400,
      "VALIDATION_FAILED",
    );
    // No Content-Length (a chunked body): refused, not read.
    const { stream, pulls } = chunked(lastPart, 64 * 1024);
    const unknown = await expectProblem(
      await putPart(account.client, id, 2, stream, null),
      400,
      "VALIDATION_FAILED",
    );
    expect(JSON.stringify(unknown.errors)).toMatch(/Content-Length is required/);
    expect(pulls.count).toBeLessThanOrEqual(1);

    // Part numbers: 1..2 here.
    for (const number of [0, 3, "x", "1.5", "-1"]) {
      await expectProblem(
        await putPart(account.client, id, number, lastPart),
        400,
        "VALIDATION_FAILED",
      );
    }
    // Raw bytes only: another declared type is 415, before the body is read.
    const typed = chunked(lastPart, 64 * 1024);
    await expectProblem(
      await putPart(account.client, id, 2, typed.stream, MIB, "text/plain"),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    expect(typed.pulls.count).toBeLessThanOrEqual(1);
    // Without a Content-Type (a Blob without a type, as browsers send it): taken.
    expect((await putPart(account.client, id, 2, lastPart, MIB, null)).status).toBe(200);

    // Refused parts left nothing behind: the right ones still complete the upload.
    const parts = await Promise.all(
      [file.slice(0, 8 * MIB), lastPart].map(async (bytes, i) => {
        const response = await putPart(account.client, id, i + 1, bytes);
        expect(response.status).toBe(200);
        return (await response.json()) as { partNumber: number; etag: string };
      }),
    );
    const done = await account.client.post(`/api/v1/uploads/${id}/complete`, { parts });
    expect(done.status).toBe(202);
  });

  it("is the owning artist's alone: 401 signed out, 403 another artist or a listener, 404 unknown or expired", async () => {
    const account = await artist();
    const file = wav(64 * 1024);
    const started = await start(account, file);
    const id = started.uploadId;
    const other = await registerAccount("artist", new Client(undefined, S3_BINDINGS));
    const listener = await registerAccount("user", new Client(undefined, S3_BINDINGS));
    await expectProblem(await putPart(other.client, id, 1, file), 403, "FORBIDDEN");
    await expectProblem(await putPart(listener.client, id, 1, file), 403, "FORBIDDEN");
    await expectProblem(
      await putPart(new Client(undefined, S3_BINDINGS), id, 1, file),
      401,
      "UNAUTHORIZED",
    );
    await expectProblem(
      await putPart(account.client, crypto.randomUUID(), 1, file),
      404,
      "NOT_FOUND",
    );
    await withDb((db) =>
      db
        .update(trackUploads)
        .set({ expiresAt: sql`now() - interval '1 minute'` })
        .where(eq(trackUploads.id, id)),
    );
    const expired = await expectProblem(
      await putPart(account.client, id, 1, file),
      404,
      "NOT_FOUND",
    );
    expect(expired.detail).toMatch(/expired/);
  });

  it("answers 404 when storage no longer knows the upload (aborted behind the service's back)", async () => {
    const account = await artist();
    const file = wav(64 * 1024);
    const started = await start(account, file);
    const [row] = await withDb((db) =>
      db.select().from(trackUploads).where(eq(trackUploads.id, started.uploadId)),
    );
    // The bucket's lifecycle rule aborted it; the row is still here.
    const config = s3ApiConfig(parseEnv(testBindings(S3_BINDINGS)));
    if (!config || !row) throw new Error("no S3 API or no upload");
    await directUploadStore(config).abort(row.storageKey, row.multipartId);
    await expectProblem(await putPart(account.client, started.uploadId, 1, file), 404, "NOT_FOUND");
  });
});
