import { mkdir } from "node:fs/promises";
import { connect } from "node:net";
import type { LogFn } from "./log.ts";
import { type ManagedProcess, startProcess } from "./process.ts";
import type { Restartable } from "./restartable.ts";

export interface RedisHandle extends Restartable {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` on a private port. The dev stack keeps an append-only file so queued jobs
 * survive a restart; tests keep nothing on disk. `noeviction` is what BullMQ requires.
 */
export async function startRedis(options: {
  port: number;
  dataDir?: string;
  log: LogFn;
}): Promise<RedisHandle> {
  const args = [
    "--port",
    String(options.port),
    "--bind",
    "127.0.0.1",
    "--protected-mode",
    "yes",
    "--maxmemory-policy",
    "noeviction",
    "--save",
    "",
  ];
  if (options.dataDir) {
    await mkdir(options.dataDir, { recursive: true });
    args.push("--dir", options.dataDir, "--appendonly", "yes");
  } else {
    args.push("--appendonly", "no");
  }
  const launch = async (): Promise<ManagedProcess> => {
    const proc = startProcess("redis-server", args, { log: options.log });
    await Promise.race([
      // A PONG, not just an open port: another program on the port must not pass for our Redis.
      waitForPong(options.port),
      proc.exited.then((code) => {
        throw new Error(
          `redis-server exited early (code ${code}); is it installed? run ./run setup`,
        );
      }),
    ]);
    return proc;
  };
  let proc: ManagedProcess | undefined = await launch();
  const down = async () => {
    await proc?.stop();
    proc = undefined;
  };
  return {
    url: `redis://127.0.0.1:${options.port}`,
    port: options.port,
    stop: down,
    // Same port and arguments: with a data folder the append-only file brings the keys back,
    // without one the server comes back empty (as a Redis that lost its memory).
    down,
    up: async () => {
      proc ??= await launch();
    },
  };
}

async function waitForPong(port: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ping(port))) {
    if (Date.now() > deadline) throw new Error(`no Redis answers on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" }, () => socket.write("PING\r\n"));
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("data", (data) => done(data.toString() === "+PONG\r\n"));
    socket.once("error", () => done(false));
  });
}
