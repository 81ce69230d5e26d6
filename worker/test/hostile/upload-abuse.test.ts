import { trackKeys } from "@edge-music/contracts";
import { trackUploads } from "@edge-music/db";
import { AwsV4Signer } from "aws4fetch";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, inject, it, vi } from "vitest";
import type { Bindings } from "../../src/env.ts";
import { parseEnv } from "../../src/env.ts";
import { abortExpiredUploads } from "../../src/features/tracks/direct-upload/service.ts";
import { createLogger } from "../../src/logger.ts";
import { ACCOUNT_KINDS } from "../../src/security/account-kinds.ts";
import { directUploadStore, s3ApiConfig } from "../../src/storage/direct-upload.ts";
import { Client, type Registered, registerAccount } from "../support/auth.ts";
import { testBindings } from "../support/env.ts";
import { httpDb, withDb } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";
import { MIB, S3_BINDINGS, type Started, wav } from "../tracks/direct-upload/support.ts";

/**
 * Direct uploads under abuse: an artist who opens uploads without end, declares more bytes than
 * a serious catalogue needs, sends more bytes to a part URL than the part holds, or leaves; a
 * session ended while its access token still verifies; a clean-up that has more to do than one
 * batch. Each case is one an attacker can run from a signed-in artist account.
 */
const GIB = 1024 ** 3;
const DAY = 24 * 60 * 60 * 1000;
const s3 = inject("infra").s3;
const store = () => {
  const config = s3ApiConfig(parseEnv(testBindings(S3_BINDINGS)));
  if (!config) throw new Error("no S3 API in the test bindings");
  return directUploadStore(config);
};

/** A new artist whose requests run with these variables (the upload limits), on the S3 API. */
const artistWith = (vars: Partial<Bindings> = {}) =>
  registerAccount("artist", new Client(undefined, { ...S3_BINDINGS, ...vars }));

const begin = (account: Registered, size = 64 * 1024) =>
  account.client.post("/api/v1/uploads", {
    title: "Take",
    filename: "take.wav",
    contentType: "audio/wav",
    size,
  });

const statusesOf = (responses: Response[]) => responses.map((r) => r.status).sort();

/**
 * Runs `run` and counts the CreateMultipartUpload requests the app sends to storage meanwhile
 * (the app runs in this isolate, so its fetches pass through this spy).
 */
async function countingStorageStarts<T>(run: () => Promise<T>) {
  const realFetch = globalThis.fetch;
  let starts = 0;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.searchParams.has("uploads")) starts++;
    return realFetch(input, init);
  });
  try {
    const result = await run();
    return { result, starts };
  } finally {
    spy.mockRestore();
  }
}

/**
 * What S3 and R2 do with a presigned request: the signature computed again over the headers the
 * URL names (X-Amz-SignedHeaders), with the values the request carries. A header left out of the
 * signature may carry anything.
 */
async function storageAccepts(url: string, headers: Record<string, string>) {
  const presigned = new URL(url);
  const signature = presigned.searchParams.get("X-Amz-Signature");
  const named = (presigned.searchParams.get("X-Amz-SignedHeaders") ?? "").split(";");
  presigned.searchParams.delete("X-Amz-Signature");
  const signer = new AwsV4Signer({
    url: presigned.toString(),
    method: "PUT",
    headers: Object.fromEntries(
      named.filter((name) => name !== "host").map((name) => [name, headers[name] ?? ""]),
    ),
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    service: "s3",
    region: s3.region,
    datetime: presigned.searchParams.get("X-Amz-Date") ?? "",
    signQuery: true,
    allHeaders: true,
  });
  const recomputed = new URL((await signer.sign()).url).searchParams.get("X-Amz-Signature");
  return recomputed === signature;
}

describe("direct uploads under abuse", () => {
  it("stops an artist opening 2 GiB uploads without end: 409 once the open bytes reach their cap, before storage", async () => {
    const account = await artistWith();
    // The reproduction: 60 starts of 2 GiB each, all 201 before.
    const { result, starts } = await countingStorageStarts(async () => {
      const responses: Response[] = [];
      for (let i = 0; i < 60; i++) responses.push(await begin(account, 2 * GIB));
      return responses;
    });
    // By default at most 4 × MAX_DIRECT_UPLOAD_BYTES (8 GiB) declared in open uploads.
    expect(result.slice(0, 4).map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const refused = await expectProblem(result[4] as Response, 409, "CONFLICT");
    expect(refused.detail).toMatch(/8589934592 bytes/);
    expect(statusesOf(result.slice(5))).toEqual(Array(55).fill(409));
    expect(starts).toBe(4);
  });

  it("caps the open uploads per artist, also against parallel starts; an upload that ends frees its place", async () => {
    const account = await artistWith({ MAX_OPEN_DIRECT_UPLOADS: "3" });
    const { result, starts } = await countingStorageStarts(() =>
      Promise.all(Array.from({ length: 12 }, () => begin(account))),
    );
    expect(statusesOf(result)).toEqual([...Array(3).fill(201), ...Array(9).fill(409)]);
    expect(starts).toBe(3);
    const refused = await expectProblem(
      result.find((r) => r.status === 409) as Response,
      409,
      "CONFLICT",
    );
    expect(refused.detail).toMatch(/3 open uploads/);
    expect(refused).toMatchObject({ openUploads: 3, maxOpenUploads: 3 });
    // Another artist is not held by this one's uploads.
    expect((await begin(await artistWith({ MAX_OPEN_DIRECT_UPLOADS: "3" }))).status).toBe(201);
    // Aborting one gives its place back.
    const open = (await (result.find((r) => r.status === 201) as Response).json()) as Started;
    expect((await account.client.delete(`/api/v1/uploads/${open.uploadId}`)).status).toBe(204);
    expect((await begin(account)).status).toBe(201);
    await expectProblem(await begin(account), 409, "CONFLICT");
  });

  it("caps the bytes declared by an artist's open uploads", async () => {
    const account = await artistWith({ MAX_OPEN_DIRECT_UPLOAD_BYTES: String(20 * MIB) });
    expect((await begin(account, 8 * MIB)).status).toBe(201);
    expect((await begin(account, 8 * MIB)).status).toBe(201);
    const over = await expectProblem(await begin(account, 8 * MIB), 409, "CONFLICT");
    expect(over).toMatchObject({ openBytes: 16 * MIB, maxOpenBytes: 20 * MIB });
    // What still fits is taken.
    expect((await begin(account, 4 * MIB)).status).toBe(201);
  });

  it("caps the uploads an artist starts a day: 429 with Retry-After, also against parallel starts; refused starts do not count", async () => {
    const account = await artistWith({ MAX_DIRECT_UPLOADS_PER_DAY: "3" });
    const { result, starts } = await countingStorageStarts(() =>
      Promise.all(Array.from({ length: 8 }, () => begin(account))),
    );
    expect(statusesOf(result)).toEqual([...Array(3).fill(201), ...Array(5).fill(429)]);
    expect(starts).toBe(3);
    const limited = result.find((r) => r.status === 429) as Response;
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(86_000);
    const problem = await expectProblem(limited, 429, "RATE_LIMITED");
    expect(problem.detail).toMatch(/3 direct uploads a day/);
    // Ending the day's uploads does not give the day's starts back.
    for (const response of result.filter((r) => r.status === 201)) {
      const { uploadId } = (await response.json()) as Started;
      expect((await account.client.delete(`/api/v1/uploads/${uploadId}`)).status).toBe(204);
    }
    await expectProblem(await begin(account), 429, "RATE_LIMITED");

    // A start refused for the open caps (409) is not one of the day's.
    const other = await artistWith({
      MAX_DIRECT_UPLOADS_PER_DAY: "2",
      MAX_OPEN_DIRECT_UPLOADS: "1",
    });
    const first = (await (await begin(other)).json()) as Started;
    await expectProblem(await begin(other), 409, "CONFLICT");
    await expectProblem(await begin(other), 409, "CONFLICT");
    expect((await other.client.delete(`/api/v1/uploads/${first.uploadId}`)).status).toBe(204);
    expect((await begin(other)).status).toBe(201);
  });

  it("checks the session before storage starts anything: an ended session's token starts nothing", async () => {
    const account = await artistWith();
    const { sessions } = ACCOUNT_KINDS.artist.auth;
    // Signed out elsewhere (or revoked): the access token still verifies for its 5 minutes.
    await withDb((db) => db.delete(sessions).where(eq(sessions.principalId, account.id)));
    const { result, starts } = await countingStorageStarts(() => begin(account));
    await expectProblem(result, 401, "UNAUTHORIZED");
    expect(starts).toBe(0);
    const rows = await withDb((db) =>
      db.select().from(trackUploads).where(eq(trackUploads.artistId, account.id)),
    );
    expect(rows).toEqual([]);
  });

  it("binds each part URL to its part's exact length: storage refuses any other Content-Length", async () => {
    const account = await artistWith();
    const file = wav(9 * MIB);
    const response = await begin(account, file.length);
    expect(response.status).toBe(201);
    const started = (await response.json()) as Started;
    const lengths = [8 * MIB, MIB];
    for (const [i, part] of started.parts.entries()) {
      const exact = lengths[i] as number;
      expect(await storageAccepts(part.url, { "content-length": String(exact) })).toBe(true);
      // Before: only the host was signed, so one part URL took up to S3's 5 GiB.
      for (const other of [5 * GIB, exact + 1, exact - 1]) {
        expect(await storageAccepts(part.url, { "content-length": String(other) })).toBe(false);
      }
      const signed = new URL(part.url).searchParams.get("X-Amz-SignedHeaders");
      expect(signed?.split(";")).toEqual(["content-length", "host"]);
    }
    // As a browser or a tool sends the part (its Content-Length set from the body): taken.
    for (const part of started.parts) {
      const from = (part.partNumber - 1) * started.partSize;
      const put = await fetch(part.url, {
        method: "PUT",
        body: file.slice(from, from + started.partSize),
      });
      expect(put.status).toBe(200);
    }
  });

  it("aborts every expired upload in one clean-up run, not a batch of them", async () => {
    const account = await artistWith();
    const count = 250;
    const ids = Array.from({ length: count }, () => crypto.randomUUID());
    const multipart = new Map<string, string>();
    for (let i = 0; i < count; i += 25) {
      await Promise.all(
        ids.slice(i, i + 25).map(async (id) => {
          multipart.set(id, await store().start(trackKeys(id).source("x.wav"), "audio/wav"));
        }),
      );
    }
    await withDb((db) =>
      db.insert(trackUploads).values(
        ids.map((id) => ({
          id,
          artistId: account.id,
          title: "Left",
          fileName: "x.wav",
          contentType: "audio/wav",
          size: 1000,
          storageKey: trackKeys(id).source("x.wav"),
          multipartId: multipart.get(id) ?? "",
          expiresAt: new Date(Date.now() - 2 * DAY),
        })),
      ),
    );
    // A run as of a day ago: it sees these, never the uploads other suites expire meanwhile.
    await abortExpiredUploads({
      db: httpDb(),
      env: parseEnv(testBindings(S3_BINDINGS)),
      log: createLogger(),
      now: new Date(Date.now() - DAY),
    });
    const left = await withDb((db) =>
      db.select().from(trackUploads).where(inArray(trackUploads.id, ids)),
    );
    expect(left).toHaveLength(0);
    // Aborted in storage, not only forgotten: their parts are refused.
    for (const id of ids.slice(0, 3)) {
      const url = await store().partUrl(
        trackKeys(id).source("x.wav"),
        multipart.get(id) ?? "",
        1,
        60,
        4,
      );
      const put = await fetch(url, { method: "PUT", body: new Uint8Array(4) });
      expect(put.status).toBe(404);
    }
  });

  it("aborts an artist's uploads when the account is deleted: their part URLs take nothing after", async () => {
    const account = await artistWith();
    const file = wav(64 * 1024);
    const uploads = await Promise.all(
      [1, 2].map(async () => (await (await begin(account, file.length)).json()) as Started),
    );
    const first = await fetch(uploads[0]?.parts[0]?.url ?? "", {
      method: "PUT",
      body: file.slice(),
    });
    expect(first.status).toBe(200);
    const deleted = await account.client.request("DELETE", `/api/v1/artists/${account.id}`, {
      password: account.password,
    });
    expect(deleted.status).toBe(204);
    for (const upload of uploads) {
      const put = await fetch(upload.parts[0]?.url ?? "", { method: "PUT", body: file.slice() });
      expect(put.status).toBe(404);
    }
    const rows = await withDb((db) =>
      db
        .select()
        .from(trackUploads)
        .where(
          inArray(
            trackUploads.id,
            uploads.map((u) => u.uploadId),
          ),
        ),
    );
    expect(rows).toEqual([]);
  });
});
