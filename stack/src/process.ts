import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { type LogFn, lineSplitter } from "./log.ts";

/**
 * Node's flags to run a TypeScript entry of this package's own (erasable syntax only, imports
 * with their .ts extension) with its built-in type stripping: on by default from Node 22.18, a
 * flag before. Cheaper than tsx's loader, whose hooks see every module the process imports (about
 * a CPU second more for wrangler's); files that import the workspace's packages still need tsx.
 */
export const STRIP_TYPES: string[] = process.features.typescript
  ? []
  : ["--experimental-strip-types"];

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

/**
 * startProcess, resolved once the child logs the line that says it is ready: its own line, not
 * just an open port, so that another program that took the port cannot pass for it. When the
 * child exits first, or says nothing of the kind in `timeoutMs`, it is stopped and the start
 * fails with its last lines.
 */
export async function startProcessUntilReady(
  command: string,
  args: string[],
  options: SpawnOptions & {
    log: LogFn;
    /** Whether a line of its output says it is ready. */
    ready: (line: string) => boolean;
    /** For the errors: "the S3 server", "pgbouncer". */
    name: string;
    timeoutMs: number;
  },
): Promise<ManagedProcess> {
  const { ready, name, timeoutMs, log, ...spawnOptions } = options;
  const lines: string[] = [];
  let heard: () => void = () => {};
  const readyHeard = new Promise<void>((resolve) => {
    heard = resolve;
  });
  const proc = startProcess(command, args, {
    ...spawnOptions,
    log: (line) => {
      lines.push(line);
      if (lines.length > 20) lines.shift();
      if (ready(line)) heard();
      log(line);
    },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      readyHeard,
      proc.exited.then((code) => {
        throw new Error(`${name} exited early (code ${code}): ${lines.join("\n")}`);
      }),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${name} was not ready in ${timeoutMs / 1000} s`)),
          timeoutMs,
        );
      }),
    ]);
  } catch (error) {
    await proc.stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return proc;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
