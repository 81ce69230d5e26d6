// The Worker as `wrangler deploy` builds it, for a test run that starts many Workers (each
// end-to-end, fault and client file its own stack): built once, and each stack's Worker runs it in
// Miniflare, on the run's Worker host (worker-host.ts), instead of under `wrangler dev`. Per
// Worker that saves wrangler's own start (about 2 CPU seconds of loading itself), its bundling of
// the sources, and the second workerd through which `wrangler dev` proxies every request.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { STRIP_TYPES } from "./process.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const optionsMain = fileURLToPath(new URL("worker-options-main.ts", import.meta.url));

/**
 * Set by the test run's global setup to the folder of the bundle it built: startStackWorker then
 * runs that bundle in Miniflare instead of starting `wrangler dev`.
 */
export const WORKER_BUNDLE_ENV = "EDGE_MUSIC_WORKER_BUNDLE";

/** wrangler offline: no telemetry, no fetch of the `cf` object (scripts/dev.ts runs it so too). */
export const WRANGLER_OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

/** What the bundle's folder holds besides wrangler's output: how Miniflare runs it. */
export const WORKER_OPTIONS_FILE = "miniflare-options.json";

/** wrangler's CLI module: a dependency of the worker package, not of the root. */
export function wranglerCli(): string {
  const manifest = createRequire(join(root, "worker", "package.json")).resolve(
    "wrangler/package.json",
  );
  return join(dirname(manifest), "wrangler-dist", "cli.js");
}

/** What startStackWorker asks the Worker host (worker-host-main.ts) to run. */
export interface BundledWorkerArgs {
  bundleDir: string;
  port: number;
  /** A JSON file (owner-only: it holds secrets) of the variables over wrangler.toml's. */
  varsFile: string;
  persistTo: string;
}

/**
 * Builds wrangler.toml's Worker with `wrangler deploy --dry-run` (the bundle a deployment
 * uploads: index.js and its wasm) into a folder of its own, beside the Miniflare options wrangler
 * derives from the same file (bindings, queues, crons, static assets, compatibility): what
 * `wrangler dev` would give Miniflare, read by wrangler itself rather than restated here.
 */
export async function buildWorkerBundle(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "edge-music-worker-"));
  const config = join(root, "wrangler.toml");
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...WRANGLER_OFFLINE_ENV },
    });
  try {
    // Two processes, side by side: wrangler is not loaded into the caller's (vitest's main).
    await Promise.all([
      run([wranglerCli(), "deploy", "--dry-run", "--outdir", dir, "--config", config]),
      run([...STRIP_TYPES, optionsMain, config, join(dir, WORKER_OPTIONS_FILE)]),
    ]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
