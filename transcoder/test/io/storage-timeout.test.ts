import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStorage } from "../../src/io/storage.ts";
import { tempDir } from "../support/sources.ts";

// A store that accepts connections and never answers (an overloaded or half-dead endpoint).
let server: Server;
let endpoint = "";
let requests = 0;
const sockets = new Set<Socket>();
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir();
  server = createServer(() => {
    requests++;
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
  await dir.remove();
});

describe("storage requests that get no answer", () => {
  it("are abandoned after the socket timeout (and retried), never held forever", async () => {
    const storage = createStorage({
      endpoint,
      region: "us-east-1",
      bucket: "media",
      accessKeyId: "key",
      secretAccessKey: "secret",
      socketTimeoutMs: 1_000,
    });
    const started = Date.now();
    await expect(storage.download("tracks/x/source/a.mp3", join(dir.path, "a"))).rejects.toThrow(
      /timed out/,
    );
    // The SDK's three tries, each given up after 1 s of silence.
    expect(requests).toBe(3);
    expect(Date.now() - started).toBeLessThan(10_000);
    storage.client.destroy();
  }, 20_000);
});
