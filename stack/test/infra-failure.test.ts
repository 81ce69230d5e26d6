import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { settleAll, startInfra } from "../src/infra.ts";
import { silent } from "../src/log.ts";
import { freePort, waitForPort } from "../src/ports.ts";
import { startS3 } from "../src/s3.ts";

const scratch = () => mkdtemp(join(tmpdir(), "edge-music-s3-"));

describe("startInfra when one part cannot start", () => {
  it("does not take another program on the Redis port for Redis, and leaves nothing running", async () => {
    const taken: Server = createServer();
    const redis = await freePort();
    await new Promise<void>((done) => taken.listen(redis, "127.0.0.1", done));
    const postgres = await freePort();
    try {
      await expect(startInfra({ ports: { postgres, redis } })).rejects.toThrow(/redis/i);
      await expect(waitForPort(postgres, "127.0.0.1", 3_000)).rejects.toThrow(/nothing listens/);
    } finally {
      taken.close();
    }
  }, 60_000);

  it("does not take another program on the S3 port for the S3 server (the failure CI once hit)", async () => {
    const taken: Server = createServer((socket) => socket.destroy());
    const s3 = await freePort();
    await new Promise<void>((done) => taken.listen(s3, "127.0.0.1", done));
    const dataDir = await scratch();
    try {
      await expect(startS3({ port: s3, dataDir, bucket: "media", log: silent })).rejects.toThrow(
        /S3 server exited early/,
      );
    } finally {
      taken.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("freePort", () => {
  it("never hands out the same port twice in one process", async () => {
    const ports: number[] = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});

describe("settleAll", () => {
  it("rejects only once every part has settled, so each can register its stop", async () => {
    const events: string[] = [];
    const slow = new Promise<string>((resolve) =>
      setTimeout(() => {
        events.push("slow part started");
        resolve("slow");
      }, 50),
    );
    const failing = Promise.reject(new Error("fast failure"));
    await expect(settleAll([slow, failing])).rejects.toThrow("fast failure");
    events.push("rejected");
    expect(events).toEqual(["slow part started", "rejected"]);
  });

  it("resolves to the values in order", async () => {
    await expect(settleAll([Promise.resolve(1), "two", Promise.resolve(3)])).resolves.toEqual([
      1,
      "two",
      3,
    ]);
  });
});
