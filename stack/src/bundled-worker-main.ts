// The child process of startBundledWorker (dev-worker.ts): runs the bundle that the test run's
// global setup built (worker-bundle.ts) in Miniflare, with the options wrangler derived from
// wrangler.toml, and prints `ready <origin>`. What `wrangler dev` runs, less wrangler itself: no
// bundling at start, no file watching, and no proxy Worker in front (wrangler dev runs one in a
// second workerd that every request passes through, for its live reload). Cron triggers answer
// on /cdn-cgi/local/scheduled as under wrangler dev. workerd runs as a child of this process.
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type BundledWorkerArgs, WORKER_OPTIONS_FILE, wranglerCli } from "./worker-bundle.ts";

/** The part of Miniflare's API used here (resolved through wrangler, whose version it is). */
interface MiniflareInstance {
  ready: Promise<URL>;
  dispose(): Promise<void>;
}
type MiniflareModule = {
  Miniflare: new (options: object) => MiniflareInstance;
  /** Miniflare 5 takes a new shape of options; wrangler, as here, writes v4's and converts them. */
  convertV4MiniflareOptions(options: object): object;
  Log: new (level: number) => object;
  LogLevel: { WARN: number };
};

const args = JSON.parse(process.argv[2] ?? "{}") as BundledWorkerArgs;
const miniflare = (await import(
  pathToFileURL(createRequire(wranglerCli()).resolve("miniflare")).href
)) as MiniflareModule;
const { modulesRules: _rules, ...options } = JSON.parse(
  await readFile(join(args.bundleDir, WORKER_OPTIONS_FILE), "utf8"),
);
// The bundle's modules, named as index.js imports them: itself, then its WebAssembly (argon2).
// wrangler's module rules picked them when it bundled; Miniflare takes the list, not the rules.
const modules = [
  { type: "ESModule", path: join(args.bundleDir, "index.js") },
  ...(await readdir(args.bundleDir))
    .filter((file) => file.endsWith(".wasm"))
    .map((file) => ({ type: "CompiledWasm", path: join(args.bundleDir, file) })),
];
const vars = JSON.parse(await readFile(args.varsFile, "utf8")) as Record<string, string>;

const mf = new miniflare.Miniflare(
  miniflare.convertV4MiniflareOptions({
    host: "127.0.0.1",
    port: args.port,
    resourcePersistencePath: args.persistTo,
    unsafeTriggerHandlers: true,
    logRequests: false,
    log: new miniflare.Log(miniflare.LogLevel.WARN),
    // The Worker's console, a line each (wrangler dev prints them so).
    handleStructuredLogs: ({ message }: { message: string }) => console.log(message),
    workers: [
      {
        ...options,
        name: "edge-music",
        modules,
        modulesRoot: args.bundleDir,
        bindings: { ...options.bindings, ...vars },
      },
    ],
  }),
);
const stop = () => {
  mf.dispose().finally(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
console.log(`ready ${(await mf.ready).origin}`);
