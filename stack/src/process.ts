import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { type LogFn, lineSplitter } from "./log.ts";

export interface ManagedProcess {
  child: ChildProcess;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM to the whole process group, SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawns a child in its own process group, so that stopping it also stops whatever it spawned
 * (wrangler starts workerd, tsx starts node): Ctrl-C on the stack leaves no orphans.
 */
export function startProcess(
  command: string,
  args: string[],
  options: SpawnOptions & { log: LogFn },
): ManagedProcess {
  const { log, ...spawnOptions } = options;
  const child = spawn(command, args, {
    ...spawnOptions,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", lineSplitter(log));
  child.stderr?.on("data", lineSplitter(log));
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : null)));
    child.once("error", (error) => {
      log(`failed to start ${command}: ${error.message}`);
      resolve(null);
    });
  });
  return {
    child,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      signalGroup(child.pid, "SIGTERM");
      const timer = setTimeout(() => child.pid && signalGroup(child.pid, "SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
      // Grandchildren that ignored SIGTERM must not outlive the stack.
      signalGroup(child.pid, "SIGKILL");
    },
  };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
