import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LogFn, silent } from "./log.ts";
import { freePort } from "./ports.ts";
import { type ManagedProcess, startProcess } from "./process.ts";

export interface RedisClusterHandle {
  /** REDIS_URL for the Worker and the transcoder: `redis+cluster://` with the first node as seed. */
  url: string;
  nodes: Array<{ host: string; port: number }>;
  stop(): Promise<void>;
}

const HOST = "127.0.0.1";
const SLOTS = 16_384;

/**
 * A local Redis Cluster of `masters` (default 3) `redis-server` processes on free ports, no
 * replicas, nothing kept on disk. The slots are split and the nodes introduced with CLUSTER
 * ADDSLOTSRANGE / SET-CONFIG-EPOCH / MEET (what `redis-cli --cluster create` sends), so redis-cli
 * is not needed and there is one start path. Resolves once every node reports `cluster_state:ok`
 * and knows every master; on any failure the nodes already started are stopped.
 */
export async function startRedisCluster(
  options: { masters?: number; log?: LogFn; timeoutMs?: number } = {},
): Promise<RedisClusterHandle> {
  const masters = options.masters ?? 3;
  const log = options.log ?? silent;
  const dir = await mkdtemp(join(tmpdir(), "edge-music-redis-cluster-"));
  const procs: ManagedProcess[] = [];
  const stop = async () => {
    await Promise.all(procs.map((proc) => proc.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    const busPorts: number[] = [];
    for (let i = 0; i < masters; i++) {
      const port = await freePort();
      // The bus port is given, not left at port + 10000: that one may be taken or past 65535.
      const busPort = await freePort();
      const lines: string[] = [];
      const proc = startProcess("redis-server", nodeArgs(port, busPort, dir), {
        log: (line) => {
          if (lines.push(line) > 20) lines.shift();
          log(`[${port}] ${line}`);
        },
      });
      procs.push(proc);
      ports.push(port);
      busPorts.push(busPort);
      await Promise.race([
        waitFor(async () => (await command(port, ["PING"])) === "PONG", 20_000, `node ${port}`),
        proc.exited.then((code) => {
          throw new Error(
            `redis-server on ${port} exited early (code ${code}); is it installed?\n${lines.join("\n")}`,
          );
        }),
      ]);
    }
    for (const [i, port] of ports.entries()) {
      const first = Math.floor((i * SLOTS) / masters);
      const last = Math.floor(((i + 1) * SLOTS) / masters) - 1;
      await command(port, ["CLUSTER", "ADDSLOTSRANGE", String(first), String(last)]);
      // Distinct epochs, as redis-cli sets them: no collision to resolve before the state is ok.
      await command(port, ["CLUSTER", "SET-CONFIG-EPOCH", String(i + 1)]);
    }
    for (const [i, port] of ports.entries()) {
      if (i === 0) continue;
      // The bus port is named: it is not the default port + 10000.
      await command(ports[0] ?? port, ["CLUSTER", "MEET", HOST, String(port), String(busPorts[i])]);
    }
    await waitFor(
      async () => {
        for (const port of ports) {
          const info = await command(port, ["CLUSTER", "INFO"]);
          if (!info.includes("cluster_state:ok")) return false;
          if (!info.includes(`cluster_known_nodes:${masters}`)) return false;
        }
        return true;
      },
      options.timeoutMs ?? 20_000,
      "cluster_state:ok on every node",
    );
    return {
      url: `redis+cluster://${HOST}:${ports[0]}`,
      nodes: ports.map((port) => ({ host: HOST, port })),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function nodeArgs(port: number, busPort: number, dir: string): string[] {
  return [
    "--port",
    String(port),
    "--cluster-port",
    String(busPort),
    "--bind",
    HOST,
    "--dir",
    dir,
    "--cluster-enabled",
    "yes",
    "--cluster-config-file",
    `nodes-${port}.conf`,
    "--cluster-node-timeout",
    "5000",
    "--maxmemory-policy",
    "noeviction",
    "--save",
    "",
    "--appendonly",
    "no",
  ];
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`redis cluster: no ${what} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * One command over a fresh connection, for the handful of set-up commands (the stack has no
 * Redis client). Understands the replies those commands give: simple strings, errors, integers
 * and bulk strings.
 */
export function command(port: number, args: string[]): Promise<string> {
  const request = `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`;
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const socket = connect({ port, host: HOST }, () => socket.write(request));
    const done = (error: Error | undefined, reply?: string) => {
      socket.destroy();
      if (error) reject(error);
      else resolve(reply ?? "");
    };
    socket.setTimeout(2_000, () => done(new Error(`redis ${port}: ${args[0]} timed out`)));
    socket.once("error", (error) => done(error));
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      const lineEnd = buffer.indexOf("\r\n");
      if (lineEnd < 0) return;
      const head = buffer.subarray(1, lineEnd).toString();
      const type = String.fromCharCode(buffer[0] ?? 0);
      if (type === "-") return done(new Error(`redis ${port}: ${args.join(" ")}: ${head}`));
      if (type !== "$") return done(undefined, head);
      const length = Number(head);
      if (length < 0) return done(undefined, "");
      const start = lineEnd + 2;
      if (buffer.length >= start + length) {
        done(undefined, buffer.subarray(start, start + length).toString());
      }
    });
  });
}
