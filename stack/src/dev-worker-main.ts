// The child process of startDevWorker (dev-worker.ts): starts one Worker with wrangler's
// `unstable_startWorker`, what `wrangler dev` runs, and prints `ready <origin>`. Local only, no
// inspector unless asked (benchmarks profile CPU), no file watching: an edit elsewhere in the
// repository must not rebuild and reload the Worker in the middle of a measurement or a test. A process of its own because wrangler ends
// the process it runs in on SIGINT/SIGTERM (after stopping workerd), which would cut short the
// caller's own clean-up. workerd runs as children of this process.
import { pathToFileURL } from "node:url";
import type { DevWorkerOptions } from "./dev-worker.ts";
import { wranglerCli } from "./worker-bundle.ts";

/** The part of wrangler's API used here (its bundled type declarations do not resolve). */
interface StartedWorker {
  ready: Promise<void>;
  url: Promise<URL>;
  dispose(): Promise<void>;
}
type StartWorker = (input: object) => Promise<StartedWorker>;

const wrangler = await import(pathToFileURL(wranglerCli()).href);
const startWorker = wrangler.unstable_startWorker as StartWorker;

const options = JSON.parse(process.argv[2] ?? "{}") as DevWorkerOptions;
const worker = await startWorker({
  config: options.config,
  ...(options.envFile ? { envFiles: [options.envFile] } : {}),
  dev: {
    server: { hostname: "127.0.0.1", port: options.port ?? 0 },
    inspector: options.inspectorPort
      ? { hostname: "127.0.0.1", port: options.inspectorPort }
      : false,
    watch: false,
    // Cron triggers by HTTP (/cdn-cgi/local/scheduled?cron=…), as ./run dev has them: a test
    // recomputes trending when it needs to instead of waiting for a timer (local only).
    testScheduled: true,
    persist: options.persistTo,
    logLevel: "warn",
  },
});
try {
  await worker.ready;
} catch (error) {
  await worker.dispose();
  throw error;
}
console.log(`ready ${(await worker.url).origin}`);
