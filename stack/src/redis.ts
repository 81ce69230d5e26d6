import { mkdir } from "node:fs/promises";
import type { LogFn } from "./log.ts";
import { waitForPort } from "./ports.ts";
import { startProcess } from "./process.ts";

export interface RedisHandle {
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
  const proc = startProcess("redis-server", args, { log: options.log });
  await Promise.race([
    waitForPort(options.port),
    proc.exited.then((code) => {
      throw new Error(`redis-server exited early (code ${code}); is it installed? run ./run setup`);
    }),
  ]);
  return {
    url: `redis://127.0.0.1:${options.port}`,
    port: options.port,
    stop: () => proc.stop(),
  };
}
