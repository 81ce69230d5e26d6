import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { Bindings } from "../../../src/env.ts";
import { RangeNotSatisfiableError } from "../../../src/errors/app-error.ts";
import { serveObject } from "../../../src/features/tracks/streaming/service.ts";
import { type ObjectStorage, r2Storage, s3Storage } from "../../../src/storage/index.ts";
import { textOf } from "../../support/body.ts";

const OPUS = "OggS-0123456789-abcdefghij";
const bucket = () => (env as Bindings).MEDIA as R2Bucket;

/** The R2 adapter over a bucket that records every call the store receives. */
function countedR2(): { storage: ObjectStorage; calls: string[] } {
  const calls: string[] = [];
  const real = bucket();
  const counted = {
    get: (...args: Parameters<R2Bucket["get"]>) => {
      calls.push("get");
      return real.get(...args);
    },
    head: (key: string) => {
      calls.push("head");
      return real.head(key);
    },
  } as unknown as R2Bucket;
  return { storage: r2Storage(counted), calls };
}

async function stored(): Promise<string> {
  const key = `serve/${crypto.randomUUID()}/128.opus`;
  await bucket().put(key, OPUS, { httpMetadata: { contentType: "audio/ogg; codecs=opus" } });
  await s3Storage(inject("infra").s3).put(key, OPUS, { contentType: "audio/ogg; codecs=opus" });
  return key;
}

const serve = (storage: ObjectStorage, key: string, range?: string, ifNoneMatch?: string) =>
  serveObject(storage, { key, range, ifNoneMatch });

describe("a Range request", () => {
  it.each([
    ["bytes=0-3", "OggS", "bytes 0-3/26"],
    ["bytes=20-", "efghij", "bytes 20-25/26"],
    ["bytes=-5", "fghij", "bytes 21-25/26"],
    ["bytes=-99", OPUS, "bytes 0-25/26"],
    ["bytes=24-999", "ij", "bytes 24-25/26"],
  ])("%s is one ranged read of the store, no HEAD", async (range, body, contentRange) => {
    const key = await stored();
    const { storage, calls } = countedR2();
    const response = await serve(storage, key, range);
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe(contentRange);
    expect(response.headers.get("content-length")).toBe(String(body.length));
    expect(await textOf(response)).toBe(body);
    expect(calls).toEqual(["get"]);
  });

  it("answers the same bytes from S3 (s3rver, which reads `bytes=-n` as `bytes=0-n`)", async () => {
    const key = await stored();
    const s3 = s3Storage(inject("infra").s3);
    for (const [range, body, contentRange] of [
      ["bytes=0-3", "OggS", "bytes 0-3/26"],
      ["bytes=20-", "efghij", "bytes 20-25/26"],
      ["bytes=-5", "fghij", "bytes 21-25/26"],
      ["bytes=24-999", "ij", "bytes 24-25/26"],
    ] as const) {
      const response = await serve(s3, key, range);
      expect([response.status, response.headers.get("content-range")], range).toEqual([
        206,
        contentRange,
      ]);
      expect(await textOf(response)).toBe(body);
    }
  });

  it("costs a HEAD only when the store refuses the range: 416 with the size", async () => {
    const key = await stored();
    const { storage, calls } = countedR2();
    for (const range of ["bytes=26-", "bytes=999-1000"]) {
      calls.length = 0;
      const refused = await serve(storage, key, range).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RangeNotSatisfiableError);
      expect((refused as RangeNotSatisfiableError).size).toBe(26);
      expect(calls).toEqual(["get", "head"]);
    }
    // S3 names the size in its refusal: no HEAD.
    const s3 = await serve(s3Storage(inject("infra").s3), key, "bytes=26-").catch((e) => e);
    expect((s3 as RangeNotSatisfiableError).size).toBe(26);
    // `-0` is empty whatever the size: only the size is read.
    calls.length = 0;
    const empty = await serve(storage, key, "bytes=-0").catch((error: unknown) => error);
    expect((empty as RangeNotSatisfiableError).size).toBe(26);
    expect(calls).toEqual(["head"]);
  });

  it("serves the whole object for a form it does not serve, and 304 for a matching tag", async () => {
    const key = await stored();
    const { storage, calls } = countedR2();
    for (const range of ["bytes=5-2", "bytes=0-1,4-5", "items=0-1"]) {
      const whole = await serve(storage, key, range);
      expect([whole.status, await textOf(whole)], range).toEqual([200, OPUS]);
    }
    const etag = (await serve(storage, key)).headers.get("etag") ?? "";
    calls.length = 0;
    const unchanged = await serve(storage, key, "bytes=0-3", etag);
    expect(unchanged.status).toBe(304);
    expect(calls).toEqual(["get"]);
  });
});
