// One process that runs every stack's Worker of a test run (worker-host-main.ts): Miniflare is
// loaded once per run, not once per stack (about a CPU second each, for each of the run's
// end-to-end, fault and client stacks), and each Worker still runs in a workerd of its own.
import { fileURLToPath } from "node:url";
import { type LogFn, lineSplitter } from "./log.ts";
import { STRIP_TYPES, startProcessUntilReady } from "./process.ts";
import type { BundledWorkerArgs } from "./worker-bundle.ts";
import { WRANGLER_OFFLINE_ENV } from "./worker-bundle.ts";

/** Set by the test run's global setup to the host's origin, beside the bundle's folder. */
export const WORKER_HOST_ENV = "EDGE_MUSIC_WORKER_HOST";

/** Starts the host; `stop` ends it and every Worker it still runs. */
export async function startWorkerHost(log: LogFn): Promise<{ url: string; stop(): Promise<void> }> {
  let url = "";
  const main = fileURLToPath(new URL("worker-host-main.ts", import.meta.url));
  const proc = await startProcessUntilReady(process.execPath, [...STRIP_TYPES, main], {
    // Offline, as scripts/dev.ts runs wrangler. No local tracing either: wrangler otherwise
    // stores a span of every request in the same workerd (≈ 120 MB and 1.4× the CPU per request
    // under load), which tests never read.
    env: { ...process.env, ...WRANGLER_OFFLINE_ENV, X_LOCAL_OBSERVABILITY: "false" },
    log: (line) => {
      if (!line.startsWith("ready ")) log(line);
    },
    ready: (line) => {
      if (!line.startsWith("ready ")) return false;
      url = line.slice("ready ".length);
      return true;
    },
    name: "the Worker host",
    timeoutMs: 60_000,
  });
  return { url, stop: () => proc.stop() };
}

/**
 * A Worker of the host at `hostUrl`, on `args.port`: resolves with its origin once it listens,
 * its console lines going to `log` meanwhile. `stop` disposes of it (its workerd ends).
 */
export async function runOnWorkerHost(
  hostUrl: string,
  args: BundledWorkerArgs,
  log: LogFn | undefined,
): Promise<{ url: string; stop(): Promise<void> }> {
  const closing = new AbortController();
  const answer = await fetch(`${hostUrl}/workers`, {
    method: "POST",
    body: JSON.stringify(args),
    signal: closing.signal,
  });
  if (!answer.ok || !answer.body) {
    throw new Error(`the Worker host answered ${answer.status}: ${await answer.text()}`);
  }
  // The first line says whether it started; the rest are its console, until it is disposed of.
  let heard: (line: string | undefined) => void = () => {};
  const first = new Promise<string | undefined>((resolve) => {
    heard = resolve;
  });
  let started = false;
  const onChunk = lineSplitter((line) => {
    if (started) log?.(line);
    else {
      started = true;
      heard(line);
    }
  });
  const body = answer.body.pipeThrough(new TextDecoderStream()).getReader();
  const logged = (async () => {
    try {
      for (let read = await body.read(); !read.done; read = await body.read()) onChunk(read.value);
    } catch {
      // Aborted by stop(), or the host went away.
    }
    heard(undefined);
  })();
  const line = await first;
  if (!line?.startsWith("ready ")) {
    closing.abort();
    throw new Error(`the Worker did not start: ${line ?? "the host ended the answer"}`);
  }
  return {
    url: line.slice("ready ".length),
    async stop() {
      await fetch(`${hostUrl}/workers/${args.port}`, { method: "DELETE" }).catch(() => {});
      closing.abort();
      await logged;
    },
  };
}
