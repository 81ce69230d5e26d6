import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { Bindings } from "../src/env.ts";
import { type ObjectStorage, r2Storage, s3Storage } from "../src/storage/index.ts";

const infra = inject("infra");

// One contract, both adapters: the R2 binding and S3 over HTTP (the S3-compatible test server).
const adapters: Array<[string, () => ObjectStorage]> = [
  ["r2", () => r2Storage((env as Bindings).MEDIA as R2Bucket)],
  ["s3", () => s3Storage(infra.s3)],
];

const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe.each(adapters)("%s storage", (_name, make) => {
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
    expect(back).toEqual(bytes);
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
