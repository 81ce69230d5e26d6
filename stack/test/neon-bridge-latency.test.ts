import { neon, neonConfig, Pool } from "@neondatabase/serverless";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import ws from "ws";
import { DelayLine, dbRttFromEnv, WSS_HANDSHAKE_ROUND_TRIPS } from "../src/latency.ts";
import { silent } from "../src/log.ts";
import { type NeonBridgeHandle, startNeonBridge } from "../src/neon-bridge.ts";
import { freePort } from "../src/ports.ts";

// Bridges of this suite's own, one near and one 100 ms of round trip away, in front of the test
// Postgres: the driver's queries through them are timed end to end.
const infra = inject("infra");
const RTT = 100;
const target = (() => {
  const { hostname, port } = new URL(infra.databaseUrl);
  return `${hostname}:${port}`;
})();
let near: NeonBridgeHandle;
let far: NeonBridgeHandle;

beforeAll(async () => {
  const bridge = async (rttMs: number) =>
    startNeonBridge({ port: await freePort(), allowedTargets: [target], rttMs, log: silent });
  [near, far] = await Promise.all([bridge(0), bridge(RTT)]);
  neonConfig.webSocketConstructor = ws;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
  neonConfig.coalesceWrites = false;
});

afterAll(async () => {
  await Promise.all([near?.stop(), far?.stop()]);
});

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** One HTTP query through `bridge`, after a first one that warms its pool. */
async function httpQueryMs(bridge: NeonBridgeHandle): Promise<number> {
  neonConfig.fetchEndpoint = bridge.httpUrl;
  const sql = neon(infra.databaseUrl);
  await sql`SELECT 1`;
  return await timed(() => sql`SELECT 1`);
}

/** A new Pool's first query through `bridge`: a new WebSocket, the Postgres start-up, the query. */
async function wsConnectAndQueryMs(bridge: NeonBridgeHandle): Promise<number> {
  neonConfig.wsProxy = (host, port) => `127.0.0.1:${bridge.port}/v1?address=${host}:${port}`;
  const pool = new Pool({ connectionString: infra.databaseUrl });
  try {
    return await timed(async () => {
      const { rows } = await pool.query("SELECT 41 + 1 AS answer");
      expect(rows).toEqual([{ answer: 42 }]);
    });
  } finally {
    await pool.end();
  }
}

describe("the bridge's database round trip (DEV_DB_RTT_MS)", () => {
  it("makes an HTTP query cost one round trip", async () => {
    const ms = await httpQueryMs(far);
    expect(ms).toBeGreaterThanOrEqual(RTT);
    expect(ms).toBeLessThan(1_000);
  });

  it("makes a new WebSocket cost the wss:// handshakes, then a round trip per exchange", async () => {
    // TCP + TLS + upgrade, then at least the query itself.
    const ms = await wsConnectAndQueryMs(far);
    expect(ms).toBeGreaterThanOrEqual((WSS_HANDSHAKE_ROUND_TRIPS + 1) * RTT);
    expect(ms).toBeLessThan(3_000);
  });

  it("adds nothing at 0", async () => {
    expect(await httpQueryMs(near)).toBeLessThan(RTT);
    // A new Postgres backend alone may take tens of milliseconds on a loaded machine; what must
    // not be there is the ≥ 4 round trips (400 ms) the far bridge adds.
    expect(await wsConnectAndQueryMs(near)).toBeLessThan(2 * RTT);
  });
});

describe("DelayLine", () => {
  it("runs each action a fixed delay later, in the order pushed", async () => {
    const line = new DelayLine(30);
    const start = performance.now();
    const seen: Array<[string, number]> = [];
    // When "b" is pushed: a 10 ms timer may fire a little early on Node's millisecond clock.
    let pushedB = 0;
    const done = new Promise<void>((resolve) => {
      line.push(() => seen.push(["a", performance.now() - start]));
      setTimeout(() => {
        pushedB = performance.now() - start;
        line.push(() => seen.push(["b", performance.now() - start]));
        line.push(() => {
          seen.push(["c", performance.now() - start]);
          resolve();
        });
      }, 10);
    });
    expect(seen).toEqual([]);
    await done;
    expect(seen.map(([name]) => name)).toEqual(["a", "b", "c"]);
    expect(seen[0]?.[1]).toBeGreaterThanOrEqual(30);
    expect((seen[1]?.[1] ?? 0) - pushedB).toBeGreaterThanOrEqual(30);
  });

  it("runs at once without a delay", () => {
    const seen: string[] = [];
    new DelayLine(0).push(() => seen.push("now"));
    expect(seen).toEqual(["now"]);
  });
});

describe("dbRttFromEnv", () => {
  it("reads milliseconds, 0 when unset, and refuses what is not a duration", () => {
    expect(dbRttFromEnv(undefined)).toBe(0);
    expect(dbRttFromEnv("")).toBe(0);
    expect(dbRttFromEnv("50")).toBe(50);
    expect(dbRttFromEnv("12.5")).toBe(12.5);
    expect(() => dbRttFromEnv("-1")).toThrow(/DEV_DB_RTT_MS/);
    expect(() => dbRttFromEnv("50ms")).toThrow(/DEV_DB_RTT_MS/);
  });
});
