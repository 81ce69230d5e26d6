// The test run's Worker host (worker-host.ts): one process that loads Miniflare once and runs the
// run's Worker build (worker-bundle.ts) for every stack that asks, each in a Miniflare (and a
// workerd) of its own, with the options wrangler derived from wrangler.toml and the stack's
// variables. What `wrangler dev` runs, less wrangler itself: no bundling at start, no file
// watching, no proxy Worker in front. Cron triggers answer on /cdn-cgi/local/scheduled as under
// wrangler dev.
//
// Its API, on 127.0.0.1 (printed as `ready <origin>`):
//   POST /workers {BundledWorkerArgs}: a streamed text answer, a line each: `ready <origin>` once
//     the Worker listens (or `failed <reason>`), then the Worker's console lines. The Worker lives
//     as long as that answer: when the asker closes it (or its process dies), the Worker is
//     disposed of.
//   DELETE /workers/<port>: disposes of the Worker on that port; 204 once its workerd is gone.
import { readdir, readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
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
  Log: new (level: number) => { log(message: string): void };
  LogLevel: { WARN: number };
};

const miniflare = (await import(
  pathToFileURL(createRequire(wranglerCli()).resolve("miniflare")).href
)) as MiniflareModule;

/** Running Workers by port; each disposes at most once. */
const running = new Map<number, () => Promise<void>>();

/** The bundle's modules, named as index.js imports them: itself, then its WebAssembly (argon2). */
async function bundleModules(bundleDir: string) {
  // wrangler's module rules picked them when it bundled; Miniflare takes the list, not the rules.
  return [
    { type: "ESModule", path: join(bundleDir, "index.js") },
    ...(await readdir(bundleDir))
      .filter((file) => file.endsWith(".wasm"))
      .map((file) => ({ type: "CompiledWasm", path: join(bundleDir, file) })),
  ];
}

async function startWorker(args: BundledWorkerArgs, res: ServerResponse): Promise<void> {
  res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
  /** A line, or several: only the first line of the answer (`ready`, `failed`) must be whole. */
  const say = (text: string) => {
    if (!res.writableEnded) res.write(`${text}\n`);
  };
  let mf: MiniflareInstance | undefined;
  let disposed: Promise<void> | undefined;
  const dispose = () => {
    disposed ??= (async () => {
      running.delete(args.port);
      await mf?.dispose().catch(() => {});
      res.end();
    })();
    return disposed;
  };
  // The asker gone (stopped, or its process ended): so is its Worker.
  res.once("close", () => void dispose());
  running.set(args.port, dispose);
  try {
    const { modulesRules: _rules, ...options } = JSON.parse(
      await readFile(join(args.bundleDir, WORKER_OPTIONS_FILE), "utf8"),
    );
    const vars = JSON.parse(await readFile(args.varsFile, "utf8")) as Record<string, string>;
    const modules = await bundleModules(args.bundleDir);
    if (disposed) return;
    mf = new miniflare.Miniflare(
      miniflare.convertV4MiniflareOptions({
        host: "127.0.0.1",
        port: args.port,
        resourcePersistencePath: args.persistTo,
        unsafeTriggerHandlers: true,
        logRequests: false,
        // Miniflare's own warnings and errors about this Worker, to its asker too.
        log: new (class extends miniflare.Log {
          override log(message: string) {
            say(message);
          }
        })(miniflare.LogLevel.WARN),
        // The Worker's console (the asker splits it into lines, as wrangler dev prints them).
        handleStructuredLogs: ({ message }: { message: string }) => say(message),
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
    say(`ready ${(await mf.ready).origin}`);
  } catch (error) {
    say(`failed ${(error as Error).message.replaceAll("\n", " ")}`);
    await dispose();
  }
}

async function body(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

const server = createServer((req, res) => {
  const stop = /^\/workers\/(\d+)$/.exec(req.url ?? "");
  if (req.method === "POST" && req.url === "/workers") {
    body(req)
      .then((text) => startWorker(JSON.parse(text) as BundledWorkerArgs, res))
      .catch((error: Error) => {
        if (!res.headersSent) res.writeHead(400).end(error.message);
      });
  } else if (req.method === "DELETE" && stop) {
    const dispose = running.get(Number(stop[1]));
    if (!dispose) res.writeHead(404).end();
    else void dispose().then(() => res.writeHead(204).end());
  } else {
    res.writeHead(404).end();
  }
});
// Answers stream for as long as their Worker runs: no timeout may end them.
server.requestTimeout = 0;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") console.log(`ready http://127.0.0.1:${address.port}`);
});

const shutdown = () => {
  server.close();
  void Promise.all([...running.values()].map((dispose) => dispose())).finally(() =>
    process.exit(0),
  );
};
process.once("SIGTERM", shutdown);
process.once("SIGINT", shutdown);
