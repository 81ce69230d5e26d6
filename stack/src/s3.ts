import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { LogFn } from "./log.ts";
import { STRIP_TYPES, startProcessUntilReady } from "./process.ts";

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
const REGION = "us-east-1";

/**
 * A new bucket on the running store at `endpoint` (one of startS3's), and how to reach it. s3rver
 * takes an unsigned CreateBucket.
 */
export async function createBucket(endpoint: string, bucket: string): Promise<S3Config> {
  const answer = await fetch(`${endpoint}/${bucket}`, { method: "PUT" });
  if (!answer.ok) {
    throw new Error(
      `the S3 store refused bucket ${bucket}: ${answer.status} ${await answer.text()}`,
    );
  }
  return { endpoint, region: REGION, bucket, ...CREDENTIALS };
}

export async function startS3(options: {
  port: number;
  dataDir: string;
  bucket: string;
  log: LogFn;
}): Promise<S3Handle> {
  await mkdir(options.dataDir, { recursive: true });
  const main = fileURLToPath(new URL("./s3-server-main.ts", import.meta.url));
  const ready = `listening on http://127.0.0.1:${options.port} `;
  const proc = await startProcessUntilReady(
    process.execPath,
    [...STRIP_TYPES, main, String(options.port), options.dataDir, options.bucket],
    {
      log: options.log,
      ready: (line) => line.startsWith(ready),
      name: "the S3 server",
      timeoutMs: 30_000,
      env: { ...process.env, NODE_OPTIONS: "--openssl-legacy-provider" },
      cwd: fileURLToPath(new URL("..", import.meta.url)),
    },
  );
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    region: REGION,
    bucket: options.bucket,
    ...CREDENTIALS,
    stop: () => proc.stop(),
  };
}
