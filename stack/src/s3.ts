import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { LogFn } from "./log.ts";
import { startProcess } from "./process.ts";

export interface S3Config {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface S3Handle extends S3Config {
  stop(): Promise<void>;
}

/** s3rver accepts exactly this key pair. */
const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

export async function startS3(options: {
  port: number;
  dataDir: string;
  bucket: string;
  log: LogFn;
}): Promise<S3Handle> {
  await mkdir(options.dataDir, { recursive: true });
  const main = fileURLToPath(new URL("./s3-server-main.ts", import.meta.url));
  // Its own "listening" line, not just an open port: another program that took the port (a
  // parallel test run) must not pass for our S3 server. Read from the lines the log gets, as
  // the dev Worker's "ready" line is.
  const ready = `listening on http://127.0.0.1:${options.port} `;
  let heard: () => void = () => {};
  const listening = new Promise<void>((resolve) => {
    heard = resolve;
  });
  const proc = startProcess(
    process.execPath,
    ["--import", "tsx", main, String(options.port), options.dataDir, options.bucket],
    {
      log: (line) => {
        if (line.startsWith(ready)) heard();
        options.log(line);
      },
      env: { ...process.env, NODE_OPTIONS: "--openssl-legacy-provider" },
      cwd: fileURLToPath(new URL("..", import.meta.url)),
    },
  );
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      listening,
      proc.exited.then((code) => {
        throw new Error(`the S3 server exited early (code ${code})`);
      }),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the S3 server did not listen on ${options.port} in 30 s`)),
          30_000,
        );
      }),
    ]);
  } catch (error) {
    await proc.stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    region: "us-east-1",
    bucket: options.bucket,
    ...CREDENTIALS,
    stop: () => proc.stop(),
  };
}
