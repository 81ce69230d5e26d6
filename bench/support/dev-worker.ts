// Runs `wrangler dev` for a benchmark as scripts/dev.ts does (offline: no telemetry, no `cf`
// fetch), in its own process group so that stopping it also stops the workerd processes it spawns.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, startProcess } from "@edge-music/stack";

const root = fileURLToPath(new URL("../..", import.meta.url));
// wrangler is a dependency of the worker package, not of the root: resolve it from there.
const wranglerPackage = createRequire(join(root, "worker", "package.json")).resolve(
  "wrangler/package.json",
);
const wranglerBin = join(dirname(wranglerPackage), "bin", "wrangler.js");

export interface WranglerDevOptions {
  config: string;
  /** Where wrangler keeps local state (a temporary folder: a benchmark must not touch .wrangler/). */
  persistTo: string;
  /** Variables and secrets; given, wrangler ignores the repository's .dev.vars. */
  envFile?: string;
  port?: number;
  /** A path that answers 2xx once the Worker is up. */
  readyPath: string;
}

export interface WranglerDev {
  url: string;
  /** The process group: wrangler and the workerd processes it started. */
  pgid: number;
  stop(): Promise<void>;
}

export async function startWranglerDev(options: WranglerDevOptions): Promise<WranglerDev> {
  const port = options.port ?? (await freePort());
  const output: string[] = [];
  const proc = startProcess(
    process.execPath,
    [
      wranglerBin,
      "dev",
      "--config",
      options.config,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(await freePort()),
      "--persist-to",
      options.persistTo,
      "--log-level",
      "warn",
      "--show-interactive-dev-session=false",
      ...(options.envFile ? ["--env-file", options.envFile] : []),
    ],
    {
      cwd: dirname(options.config),
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: "false",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        NO_COLOR: "1",
      },
      // Kept for the error message only: wrangler says why it did not start.
      log: (line) => output.push(line) > 40 && output.shift(),
    },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}${options.readyPath}`, proc.exited, 120_000);
  } catch (error) {
    await proc.stop();
    throw new Error(
      `wrangler dev did not start: ${(error as Error).message}\n${output.join("\n")}`,
    );
  }
  return { url, pgid: proc.child.pid ?? 0, stop: () => proc.stop() };
}

async function waitForHttp(url: string, exited: Promise<unknown>, timeoutMs: number) {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + timeoutMs;
  while (!gone && Date.now() < deadline) {
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(gone ? "the process exited" : `${url} did not answer in ${timeoutMs / 1000} s`);
}
