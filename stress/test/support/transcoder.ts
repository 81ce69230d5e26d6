import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { type InfraInfo, startTranscoderProcess } from "@edge-music/stack";

const exec = promisify(execFile);

export interface RunningTranscoder {
  pid: number;
  /** Resolves once it has started (its configuration and connections made); rejects if it exits. */
  ready: Promise<void>;
  /** Its temporary folder (TMPDIR): ffmpeg's work folders are made in it. */
  workDir: string;
  /** The exit code (128 when a signal ended it). */
  exited: Promise<number | null>;
  /** The ffmpeg (and ffprobe) processes it runs now. */
  children(): Promise<string[]>;
  /** SIGKILL to the process and everything it started: a container killed, OOM, a lost host. */
  kill(): Promise<void>;
  /** SIGTERM to the Node process alone, as `docker stop` sends it to the container's PID 1. */
  terminate(): void;
  stop(): Promise<void>;
}

/** The real transcoder (`node --import tsx transcoder/src/main.ts`) as its own process group. */
export function startTranscoder(
  infra: InfraInfo,
  options: { workDir: string; env: Record<string, string>; log: (line: string) => void },
): RunningTranscoder {
  let started: () => void = () => {};
  const startedLine = new Promise<void>((resolve) => {
    started = resolve;
  });
  const proc = startTranscoderProcess(infra, {
    env: { ...options.env, TMPDIR: options.workDir },
    log: (line) => {
      if (line.includes('"message":"transcoder started"')) started();
      options.log(line);
    },
  });
  const pid = proc.child.pid;
  if (pid === undefined) throw new Error("the transcoder did not start");
  return {
    pid,
    ready: Promise.race([
      startedLine,
      proc.exited.then((code) => {
        throw new Error(`the transcoder exited at start (code ${code})`);
      }),
    ]),
    workDir: options.workDir,
    exited: proc.exited,
    async children() {
      // The process group is the transcoder's pid (it was started detached); a killed child
      // lingers as a zombie until it is reaped, and runs nothing.
      const { stdout } = await exec("ps", ["-eo", "pgid=,stat=,comm="]);
      return stdout
        .split("\n")
        .map((line) => line.trim().split(/\s+/))
        .filter(([pgid, stat]) => Number(pgid) === pid && !stat?.startsWith("Z"))
        .map(([, , comm]) => comm ?? "")
        .filter((comm) => /^ff(mpeg|probe)$/.test(comm));
    },
    async kill() {
      process.kill(-pid, "SIGKILL");
      await proc.exited;
    },
    terminate() {
      process.kill(pid, "SIGTERM");
    },
    stop: () => proc.stop(5_000),
  };
}
