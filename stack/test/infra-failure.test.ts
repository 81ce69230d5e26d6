import { createServer, type Server } from "node:net";
import { describe, expect, it } from "vitest";
import { settleAll, startInfra } from "../src/infra.ts";
import { freePort, waitForPort } from "../src/ports.ts";

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
