import { spawn } from "node:child_process";
import { progressParser } from "./progress.ts";

/** The run was killed by us: its timeout, or the job's abort signal (shutdown, cancellation). */
export class ProcessInterruptedError extends Error {
  override name = "ProcessInterruptedError";
}

/** The tool ran and exited non-zero. */
export class ProcessFailedError extends Error {
  override name = "ProcessFailedError";
  constructor(
    message: string,
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(message);
  }
}

export interface RunOptions {
  cwd?: string;
  signal?: AbortSignal;
  timeoutMs: number;
  /** Receives stdout as it comes; without it, stdout is collected and returned. */
  onStdout?: (chunk: string) => void;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  /** The tail of stderr (ffmpeg's summary and errors come last). */
  stderr: string;
}

const STDERR_TAIL = 64 * 1024;
const STDOUT_LIMIT = 64 * 1024 * 1024;

const describeAbort = (reason: unknown) =>
  typeof reason === "string" ? reason : reason instanceof Error ? reason.message : "aborted";

/**
 * Spawns a tool (ffmpeg, ffprobe) without a shell. SIGKILL on timeout or abort: ffmpeg may ignore
 * SIGTERM while flushing, and a half-written output is thrown away anyway.
 */
export function runTool(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  const { signal, timeoutMs } = options;
  if (signal?.aborted) {
    return Promise.reject(
      new ProcessInterruptedError(`${command} interrupted (${describeAbort(signal.reason)})`),
    );
  }
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
    let killedFor: string | undefined;
    const kill = (why: string) => {
      killedFor ??= why;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(
      () => kill(`timed out after ${Math.round(timeoutMs / 1000)} s`),
      timeoutMs,
    );
    const onAbort = () => kill(`interrupted (${describeAbort(signal?.reason)})`);
    signal?.addEventListener("abort", onAbort, { once: true });

    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (options.onStdout) return options.onStdout(chunk);
      stdout += chunk;
      if (stdout.length > STDOUT_LIMIT) kill("output too large");
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });

    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    child.on("error", (error) => {
      // Failing to spawn (ENOENT): "close" follows, but the promise is settled here.
      done();
      reject(new Error(`${command} could not run: ${error.message}`));
    });
    child.on("close", (code) => {
      done();
      if (killedFor !== undefined) {
        reject(new ProcessInterruptedError(`${command} ${killedFor}`));
      } else {
        resolve({ code, stdout, stderr });
      }
    });
  });
}

/** The last meaningful stderr line, for a one-line reason. */
export function lastLine(text: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1) ?? "";
}

export interface FfmpegOptions {
  cwd?: string;
  signal?: AbortSignal;
  timeoutMs: number;
  /** The output position in seconds, about twice a second (`-progress pipe:1`). */
  onPosition?: (seconds: number) => void;
}

/** Runs ffmpeg (its argv must carry `-progress pipe:1`); resolves with stderr's tail on exit 0. */
export async function runFfmpeg(args: string[], options: FfmpegOptions): Promise<string> {
  const { onPosition, ...rest } = options;
  const result = await runTool("ffmpeg", args, {
    ...rest,
    onStdout: progressParser((seconds) => onPosition?.(seconds)),
  });
  if (result.code !== 0) {
    throw new ProcessFailedError(
      `ffmpeg failed (exit ${result.code}): ${lastLine(result.stderr)}`,
      result.code,
      result.stderr,
    );
  }
  return result.stderr;
}
