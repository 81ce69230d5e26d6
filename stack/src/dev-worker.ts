// A Worker for a benchmark or an end-to-end test, run as `wrangler dev` runs it (see
// dev-worker-main.ts) in a child process group of its own: stopping it stops the workerd processes
// too, and nothing in it can end the caller's process before the caller has stopped what else it
// started.
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { InfraInfo } from "./infra.ts";
import { freePort } from "./ports.ts";
import { STRIP_TYPES, startProcess } from "./process.ts";
import {
  type BundledWorkerArgs,
  WORKER_BUNDLE_ENV,
  WRANGLER_OFFLINE_ENV,
} from "./worker-bundle.ts";
import { runOnWorkerHost, WORKER_HOST_ENV } from "./worker-host.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const main = fileURLToPath(new URL("dev-worker-main.ts", import.meta.url));

export interface DevWorkerOptions {
  config: string;
  /** Where local state goes (a temporary folder: a benchmark or a test must not touch .wrangler/). */
  persistTo: string;
  /** Variables and secrets; given, wrangler ignores the repository's .dev.vars. */
  envFile?: string;
  port?: number;
  /** Opens workerd's DevTools inspector on this port (benchmarks profile the isolate's CPU). */
  inspectorPort?: number;
  /** The Worker's own log lines (console output, errors); dropped by default. */
  log?: (line: string) => void;
}

export interface DevWorker {
  url: string;
  /**
   * The process that runs wrangler, workerd's parent; none when the test run's Worker host runs
   * it (a benchmark, which samples these processes, runs outside a test run).
   */
  pid?: number;
  stop(): Promise<void>;
}

/** The process that runs `worker` (a benchmark samples it and its workerd): one of startDevWorker's. */
export function workerProcessId(worker: DevWorker): number {
  if (worker.pid === undefined) {
    throw new Error("this Worker runs on the test run's Worker host, in no process of its own");
  }
  return worker.pid;
}

export async function startDevWorker(options: DevWorkerOptions): Promise<DevWorker> {
  const { log, ...childOptions } = options;
  return await startWorkerProcess(main, childOptions, log);
}

/**
 * A Worker built once for the test run (worker-bundle.ts), run on `port` by the run's Worker host
 * (worker-host.ts) with `vars` over wrangler.toml's.
 */
async function startBundledWorker(options: {
  bundleDir: string;
  hostUrl: string;
  port: number;
  vars: Record<string, string>;
  tmp: string;
  log?: (line: string) => void;
}): Promise<DevWorker> {
  const varsFile = join(options.tmp, "worker-vars.json");
  await writeFile(varsFile, JSON.stringify(options.vars), { mode: 0o600 });
  const args: BundledWorkerArgs = {
    bundleDir: options.bundleDir,
    port: options.port,
    varsFile,
    persistTo: join(options.tmp, "worker-state"),
  };
  return await runOnWorkerHost(options.hostUrl, args, options.log);
}

/** Runs `entry` with its arguments as JSON until it prints `ready <origin>`. */
async function startWorkerProcess(
  entry: string,
  args: object,
  log: ((line: string) => void) | undefined,
): Promise<DevWorker> {
  const output: string[] = [];
  let ready: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => {
    ready = resolve;
  });
  const proc = startProcess(process.execPath, [...STRIP_TYPES, entry, JSON.stringify(args)], {
    cwd: root,
    // Offline, as scripts/dev.ts runs it. No local tracing either: wrangler otherwise stores a
    // span of every request in the same workerd (≈ 120 MB and 1.4× the CPU per request under
    // load), which tests and benches never read.
    env: { ...process.env, ...WRANGLER_OFFLINE_ENV, X_LOCAL_OBSERVABILITY: "false" },
    // Kept for the error message of a failed start: wrangler says why.
    log: (line) => {
      if (line.startsWith("ready ")) ready(line.slice("ready ".length));
      if (output.push(line) > 40) output.shift();
      log?.(line);
    },
  });
  let timer: NodeJS.Timeout | undefined;
  const started = await Promise.race([
    url,
    proc.exited.then(() => "exited"),
    new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve("not ready after 120 s"), 120_000);
    }),
  ]);
  clearTimeout(timer);
  if (!started.startsWith("http")) {
    await proc.stop();
    throw new Error(`the Worker did not start (${started}):\n${output.join("\n")}`);
  }
  return { url: started, pid: proc.child.pid ?? 0, stop: () => proc.stop() };
}

/**
 * The Worker's variables against a local stack: S3 storage and secrets made for this run;
 * `overrides` go over them (the dev stack's kept secrets, its log level).
 */
export function stackWorkerVars(
  infra: InfraInfo,
  publicBaseUrl: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    // Through the pooler, as the Worker reaches Neon's pooled endpoint in production.
    DATABASE_URL: infra.pooledDatabaseUrl,
    // Neon's HTTP query path (`neon()`, drizzle's neon-http) through the same bridge.
    NEON_HTTP_ENDPOINT: infra.neonHttpEndpoint,
    REDIS_URL: infra.redisUrl,
    PUBLIC_BASE_URL: publicBaseUrl,
    // The web player is served by the Worker itself (static assets at /): OAuth returns, reset
    // and verification links lead there.
    FRONTEND_URL: publicBaseUrl,
    LOG_LEVEL: "warn",
    JWT_SECRET: randomBytes(32).toString("base64url"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    STORAGE_DRIVER: "s3",
    S3_ENDPOINT: infra.s3.endpoint,
    S3_REGION: infra.s3.region,
    S3_BUCKET: infra.s3.bucket,
    S3_ACCESS_KEY_ID: infra.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: infra.s3.secretAccessKey,
    ...overrides,
  };
}

/**
 * Variables as wrangler reads them from an env file (`.dev.vars`, `--env-file`): `KEY="value"`, one
 * a line, after an optional `# comment` line. Owner-only: the file holds secrets.
 */
export async function writeEnvFile(
  file: string,
  vars: Record<string, string>,
  comment?: string,
): Promise<void> {
  const lines = Object.entries(vars).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  if (comment) lines.unshift(`# ${comment}`);
  await writeFile(file, `${lines.join("\n")}\n`, { mode: 0o600 });
}

/**
 * wrangler.toml's Worker against a local stack, on a free port: its variables go to a file in
 * `tmp` (so the repository's .dev.vars is not read) and its local state under `tmp` too. In a test
 * run whose global setup built the Worker's bundle (EDGE_MUSIC_WORKER_BUNDLE) and started the
 * Worker host (EDGE_MUSIC_WORKER_HOST), that bundle runs in Miniflare on the host (ADRs 0031, 0033);
 * otherwise (benchmarks, an inspector, or asked for) under `wrangler dev`, as `./run dev` runs it.
 */
export async function startStackWorker(
  infra: InfraInfo,
  options: {
    tmp: string;
    log?: (line: string) => void;
    inspectorPort?: number;
    /** Variables over the stack's (the OAuth stand-ins', …). */
    vars?: Record<string, string>;
    /** Under `wrangler dev` even when the run built a bundle: what `./run dev` starts. */
    wranglerDev?: boolean;
  },
): Promise<DevWorker> {
  const port = await freePort();
  const vars = stackWorkerVars(infra, `http://127.0.0.1:${port}`, options.vars);
  const bundleDir = process.env[WORKER_BUNDLE_ENV];
  const hostUrl = process.env[WORKER_HOST_ENV];
  if (bundleDir && hostUrl && !options.inspectorPort && !options.wranglerDev) {
    return await startBundledWorker({
      bundleDir,
      hostUrl,
      port,
      vars,
      tmp: options.tmp,
      ...(options.log ? { log: options.log } : {}),
    });
  }
  const envFile = join(options.tmp, "worker.env");
  await writeEnvFile(envFile, vars);
  return await startDevWorker({
    config: join(root, "wrangler.toml"),
    port,
    envFile,
    persistTo: join(options.tmp, "worker-state"),
    ...(options.log ? { log: options.log } : {}),
    ...(options.inspectorPort ? { inspectorPort: options.inspectorPort } : {}),
  });
}
