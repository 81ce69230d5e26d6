import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { Bindings } from "../src/env.ts";
import {
  MULTIPART_PART_BYTES,
  type ObjectStorage,
  ObjectTooLargeError,
  r2Storage,
  s3Storage,
  UnsatisfiableRangeError,
} from "../src/storage/index.ts";
import { StorageUnavailableError } from "../src/storage/port.ts";
import { byteDifference } from "./support/body.ts";
import { CLOSED_PORT } from "./support/env.ts";

const infra = inject("infra");

// One contract, both adapters: the R2 binding and S3 over HTTP (the S3-compatible test server).
const adapters: Array<[string, () => ObjectStorage]> = [
  ["r2", () => r2Storage((env as Bindings).MEDIA as R2Bucket)],
  ["s3", () => s3Storage(infra.s3)],
];

const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

/** A stream of `bytes` in chunks of `size`, with no length known up front (like an upload). */
const chunked = (bytes: Uint8Array, size: number) => {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
};

describe.each(adapters)("%s storage", (name, make) => {
  const storage = make();
  const prefix = () => `contract/${crypto.randomUUID()}/`;

  it("stores, reads and describes an object", async () => {
    const key = `${prefix()}hello world ü.txt`;
    const put = await storage.put(key, "hello", { contentType: "text/plain" });
    expect(put.size).toBe(5);
    const head = await storage.head(key);
    expect(head).toMatchObject({ key, size: 5, contentType: "text/plain" });
    const got = await storage.get(key);
    expect(got && (await text(got.body))).toBe("hello");
  });

  it("stores a stream of known length", async () => {
    const key = `${prefix()}stream.bin`;
    const bytes = new Uint8Array(300_000).map((_, i) => i % 251);
    const stream = new Blob([bytes]).stream();
    await storage.put(key, stream, {
      size: bytes.byteLength,
      contentType: "application/octet-stream",
    });
    const got = await storage.get(key);
    const back = new Uint8Array(await new Response(got?.body).arrayBuffer());
    expect(byteDifference(back, bytes)).toBeNull();
  });

  it("streams an object of unknown length through a multipart upload", async () => {
    const key = `${prefix()}big.bin`;
    // Two full 8 MiB parts and a short last one: what R2 and S3 require of multipart parts.
    const size = 2 * MULTIPART_PART_BYTES + 12_345;
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 7) % 256;
    const stored = await storage.putStream(key, chunked(bytes, 65_536), {
      contentType: "audio/mpeg",
    });
    expect(stored.size).toBe(size);
    const got = await storage.get(key);
    expect(got?.contentType).toBe("audio/mpeg");
    // Not toEqual: a diff of 16 MiB arrays would exhaust the test isolate's heap.
    const back = new Uint8Array(await new Response(got?.body).arrayBuffer());
    expect(byteDifference(back, bytes)).toBeNull();
  });

  it("streams a small object with a single put", async () => {
    const key = `${prefix()}small.bin`;
    const stored = await storage.putStream(key, chunked(new Uint8Array(1000).fill(7), 100));
    expect(stored.size).toBe(1000);
  });

  it("refuses a stream over its limit and leaves nothing behind", async () => {
    const key = `${prefix()}too-big.bin`;
    const bytes = new Uint8Array(MULTIPART_PART_BYTES + 10);
    await expect(
      storage.putStream(key, chunked(bytes, 1 << 20), { maxBytes: MULTIPART_PART_BYTES }),
    ).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await storage.head(key)).toBeNull();
  });

  it("reads a byte range and reports the whole size", async () => {
    const key = `${prefix()}range.bin`;
    await storage.put(key, "0123456789abcdef");
    const middle = await storage.get(key, { range: { offset: 4, length: 6 } });
    expect(middle && (await text(middle.body))).toBe("456789");
    expect(middle?.range).toEqual({ offset: 4, length: 6 });
    expect(middle?.size).toBe(16);
    const tail = await storage.get(key, { range: { offset: 10 } });
    expect(tail && (await text(tail.body))).toBe("abcdef");
    expect(tail?.range).toEqual({ offset: 10, length: 6 });
  });

  it("resolves a suffix and a range past the end against the size, in the one read", async () => {
    const key = `${prefix()}resolve.bin`;
    await storage.put(key, "0123456789abcdef");
    const last = await storage.get(key, { range: { suffix: 4 } });
    expect(last && (await text(last.body))).toBe("cdef");
    expect([last?.range, last?.size]).toEqual([{ offset: 12, length: 4 }, 16]);
    const more = await storage.get(key, { range: { suffix: 99 } });
    expect(more && (await text(more.body))).toBe("0123456789abcdef");
    expect(more?.range).toEqual({ offset: 0, length: 16 });
    const cut = await storage.get(key, { range: { offset: 14, length: 10 } });
    expect(cut && (await text(cut.body))).toBe("ef");
    expect([cut?.range, cut?.size]).toEqual([{ offset: 14, length: 2 }, 16]);
  });

  it("refuses a range that starts at or after the end; a missing object is still null", async () => {
    const key = `${prefix()}short.bin`;
    await storage.put(key, "0123456789");
    for (const offset of [10, 999]) {
      const refused = storage.get(key, { range: { offset } });
      await expect(refused).rejects.toBeInstanceOf(UnsatisfiableRangeError);
      // S3 names the size in its 416; R2's error does not.
      const size = await refused.catch((error: UnsatisfiableRangeError) => error.size);
      expect(size).toBe(name === "s3" ? 10 : undefined);
    }
    expect(await storage.get(`${prefix()}missing`, { range: { offset: 99 } })).toBeNull();
  });

  it("answers null for a missing object", async () => {
    expect(await storage.head(`${prefix()}missing`)).toBeNull();
    expect(await storage.get(`${prefix()}missing`)).toBeNull();
  });

  it("lists by prefix with a cursor and deletes", async () => {
    const base = prefix();
    for (const name of ["a", "b", "c"]) await storage.put(`${base}${name}`, name);
    const first = await storage.list(base, { limit: 2 });
    expect(first.keys).toEqual([`${base}a`, `${base}b`]);
    expect(first.cursor).toBeDefined();
    const second = await storage.list(base, {
      limit: 2,
      ...(first.cursor ? { cursor: first.cursor } : {}),
    });
    expect(second.keys).toEqual([`${base}c`]);
    expect(second.cursor).toBeUndefined();
    await storage.delete([`${base}a`, `${base}b`, `${base}c`]);
    expect((await storage.list(base)).keys).toEqual([]);
  });

  it("answers the readiness ping", async () => {
    await expect(storage.ping()).resolves.toBeUndefined();
  });
});

describe("s3 storage that cannot be reached", () => {
  const storage = s3Storage({ ...infra.s3, endpoint: `http://127.0.0.1:${CLOSED_PORT}` });

  it("tries a read again, then reports the storage unavailable", async () => {
    const error = await storage.get("any/key").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageUnavailableError);
  });

  it("tries a write of bytes again too (a multipart upload's part), then reports it unavailable", async () => {
    const error = await storage.put("any/key", new TextEncoder().encode("x")).catch((e) => e);
    expect(error).toBeInstanceOf(StorageUnavailableError);
  });
});
