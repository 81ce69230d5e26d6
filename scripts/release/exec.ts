import { spawn } from "node:child_process";

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Written to the child's stdin, then closed (secrets travel this way, never in argv). */
  input?: string;
  /** Stream the child's output to ours (gates, builds) instead of capturing it. */
  inherit?: boolean;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program without a shell: arguments are never re-split or expanded. */
export function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [
        options.input === undefined ? "ignore" : "pipe",
        options.inherit ? "inherit" : "pipe",
        options.inherit ? "inherit" : "pipe",
      ],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr }),
    );
    if (options.input !== undefined && child.stdin) {
      // A child may end (or close its stdin) before it has read all of it: the write then meets a
      // closed pipe. Its exit code tells what happened; the EPIPE must not be thrown at the caller.
      child.stdin.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code !== "EPIPE") reject(error);
      });
      child.stdin.end(options.input);
    }
  });
}

/** How a command reads in a log line: arguments with spaces or quotes are quoted. */
export function describeCommand(command: string[]): string {
  return command
    .map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part)))
    .join(" ");
}
