// HLS segment GETs at 50 concurrent keep-alive clients: the real Worker (wrangler.toml through
// wrangler's unstable_startWorker, what `wrangler dev` runs; STORAGE_DRIVER=s3 on the local stack)
// against Debian's nginx serving the same files from disk.
// One READY track, 40 segments of random bytes (~130 KB: 4 s of AAC at 256 kbps is ~128 KB),
// written to the S3 store under trackKeys(id).segment(128, i) and to nginx's root at the same
// path. Every client cycles through the 40 URLs for BENCH_SECONDS (default 10) per run:
// 0. Worker, baseline: GET /api/v1/health/live, a 15-byte answer that touches nothing.
// 1. Worker, cold: starts with an empty edge cache; the first request of each URL (a miss: READY
//    check in Postgres, S3 GET, cache.put) is reported apart from the rest.
// 2. Worker, warm: every answer must come from `caches.default` (`x-edge-cache: hit`).
// 3. Worker, miss path: a query string unique to each request keys the cache, so every request
//    takes the path of the first one; this gives its figures under sustained load.
// 4. nginx (1 worker process: the load generator needs the other core), skipped when absent.
// An answer that is not a 200 of the right size (or not the expected cache state) is an error.
// The load generator is Node's fetch on the same machine: its CPU share is printed with each run.
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { migrate } from "@edge-music/db/migrate";
import { type Infra, startInfra, startStackWorker, workerProcessId } from "@edge-music/stack";
// Relative: the contracts package is not a dependency of the root (zod resolves from its folder).
import { trackKeys } from "../contracts/src/audio-processing.ts";
import { drive } from "./support/load.ts";
import { NGINX_MISSING, nginxInstalled, startNginx } from "./support/nginx.ts";
import { cpuNs } from "./support/proc-cpu.ts";
import { report } from "./support/stats.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = 50;
const SEGMENTS = 40;
const KBPS = 128;
const root = fileURLToPath(new URL("..", import.meta.url));

// Everything started is stopped, newest first, on success, on failure and on Ctrl-C. Stops are
// queued one behind the other: a Ctrl-C during the stop of the Worker's half must wait for it,
// not exit while the stack is still going down.
const stops: Array<() => Promise<void>> = [];
let stopping = Promise.resolve();
const stopSince = (mark: number) =>
  (stopping = stopping.then(async () => {
    for (const stop of stops.splice(mark).reverse()) await stop().catch(() => {});
  }));
const stopAll = () => stopSince(0);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void stopAll().then(() => process.exit(130)));
}
/** Every process started here, seen before each stop: checked at the end. */
const started: Array<{ pid: number; name: string; start: string }> = [];
const noteStarted = async () => {
  const same = (a: Proc) => (b: Proc) => a.pid === b.pid && a.start === b.start;
  for (const p of await descendants(process.pid)) {
    if (!ours.some(same(p)) && !started.some(same(p))) started.push(p);
  }
};

// pg and the AWS SDK are dependencies of db and stack, not of the root: resolved from there.
interface PgClient {
  connect(): Promise<void>;
  query(sql: string, values: unknown[]): Promise<unknown>;
  end(): Promise<void>;
}
const { Client } = createRequire(join(root, "db", "package.json"))("pg") as {
  Client: new (config: { connectionString: string }) => PgClient;
};
const s3Sdk = createRequire(join(root, "stack", "package.json"))("@aws-sdk/client-s3") as {
  S3Client: new (config: object) => { send(command: object): Promise<unknown>; destroy(): void };
  PutObjectCommand: new (input: object) => object;
};

/** An artist and a READY track: the Worker checks the status before serving a segment. */
async function insertReadyTrack(databaseUrl: string): Promise<string> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const artistId = randomUUID();
    const trackId = randomUUID();
    const name = `bench_${artistId.slice(0, 8)}`;
    await client.query("insert into artists (id, username, email) values ($1, $2, $3)", [
      artistId,
      name,
      `${name}@bench.test`,
    ]);
    await client.query(
      "insert into tracks (id, artist_id, title, processing_status) values ($1, $2, $3, 'READY')",
      [trackId, artistId, "Streaming bench"],
    );
    return trackId;
  } finally {
    await client.end();
  }
}

/** The segments in S3 and under `www`; returns their keys and sizes. */
async function writeSegments(infra: Infra, trackId: string, www: string) {
  const s3 = new s3Sdk.S3Client({
    endpoint: infra.s3.endpoint,
    region: infra.s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: infra.s3.accessKeyId, secretAccessKey: infra.s3.secretAccessKey },
  });
  const keys: string[] = [];
  const sizes: number[] = [];
  try {
    for (let i = 0; i < SEGMENTS; i++) {
      const key = trackKeys(trackId).segment(KBPS, i);
      const body = randomBytes(randomInt(126_000, 134_000));
      await s3.send(
        new s3Sdk.PutObjectCommand({
          Bucket: infra.s3.bucket,
          Key: key,
          Body: body,
          ContentType: "audio/mp4",
        }),
      );
      await mkdir(dirname(join(www, key)), { recursive: true });
      await writeFile(join(www, key), body);
      keys.push(key);
      sizes.push(body.length);
    }
  } finally {
    s3.destroy();
  }
  return { keys, sizes };
}

interface LoadOptions {
  urls: string[];
  /** The body size each URL must answer with. */
  sizes: number[];
  ms: number;
  /** Whose CPU time counts as the server's. */
  serverPids: number[];
  /** The stack's processes (S3 server, Postgres, Redis), counted apart with their reaped children. */
  stackPids?: number[];
  /** The `x-edge-cache` every answer must carry. */
  expectCache?: "hit" | "miss";
  /** Appended to each URL. */
  query?: () => string;
}

interface Hammered {
  latencies: number[];
  /** Latencies of the first request sent to each URL. */
  firstPerUrl: number[];
  requestsPerSecond: number;
  bytesPerSecond: number;
  errors: number;
  /** Answers by kind: `hit`/`miss` (the Worker), `200` (nginx) or what was wrong. */
  outcomes: Record<string, number>;
  serverCpuMsPerRequest: number;
  stackCpuMsPerRequest: number | undefined;
  /** This process: the load generator, and the stack's Neon bridge (it runs in here). */
  clientCpuPercent: number;
}

/** CONCURRENCY keep-alive clients cycling through `urls`; each answer is read whole and checked. */
async function hammer(options: LoadOptions): Promise<Hammered> {
  const { urls, sizes, expectCache, query } = options;
  const outcomes: Record<string, number> = {};
  const firstPerUrl: number[] = [];
  let bytes = 0;
  let errors = 0;
  const outcome = (kind: string, error: boolean) => {
    outcomes[kind] = (outcomes[kind] ?? 0) + 1;
    if (error) errors++;
  };
  const send = async (i: number) => {
    const index = i % urls.length;
    const sent = performance.now();
    try {
      const response = await fetch(`${urls[index]}${query?.() ?? ""}`);
      const body = await response.arrayBuffer();
      if (i < urls.length) firstPerUrl.push(performance.now() - sent);
      bytes += body.byteLength;
      const cache = response.headers.get("x-edge-cache");
      if (response.status !== 200) outcome(`status ${response.status}`, true);
      else if (body.byteLength !== sizes[index]) outcome("wrong size", true);
      else if (expectCache && cache !== expectCache) outcome(`x-edge-cache ${cache}`, true);
      else outcome(cache ?? "200", false);
      // drive() times the request until its answer is read: this one is, already.
      return new Response(null, { status: response.status });
    } catch {
      outcome("fetch failed", true);
      return new Response(null, { status: 599 });
    }
  };
  const stackPids = options.stackPids ?? [];
  const cpuBefore = await cpuNs(options.serverPids);
  const stackBefore = await cpuMsWithChildren(stackPids);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const result = await drive(CONCURRENCY, options.ms, send);
  const seconds = (performance.now() - started) / 1000;
  const client = process.cpuUsage(clientBefore);
  const serverMs = ((await cpuNs(options.serverPids)) - cpuBefore) / 1e6;
  const stackMs = (await cpuMsWithChildren(stackPids)) - stackBefore;
  return {
    latencies: result.latencies,
    firstPerUrl,
    requestsPerSecond: result.requestsPerSecond,
    bytesPerSecond: bytes / seconds,
    errors,
    outcomes,
    serverCpuMsPerRequest: serverMs / result.latencies.length,
    stackCpuMsPerRequest: options.stackPids ? stackMs / result.latencies.length : undefined,
    clientCpuPercent: (client.user + client.system) / 1e4 / seconds,
  };
}

async function startWorker(infra: Infra, tmp: string) {
  const dev = await startStackWorker(infra, { tmp });
  stops.push(dev.stop);
  return { ...dev, pid: workerProcessId(dev) };
}

/** `node×2, workerd`: which processes a CPU figure sums. */
function names(procs: Array<{ name: string }>): string {
  const counts = new Map<string, number>();
  for (const { name } of procs) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name}×${n}` : name)).join(", ");
}

function print(label: string, run: Hammered): void {
  const mb = (run.bytesPerSecond / 1e6).toFixed(1);
  const seen = Object.entries(run.outcomes).map(([outcome, n]) => `${outcome}×${n}`);
  const stack = run.stackCpuMsPerRequest;
  console.log(
    `${label}: ${run.requestsPerSecond.toFixed(1)} req/s, ${mb} MB/s, ${run.errors} errors (${seen.join(", ")})`,
  );
  console.log(
    `  CPU: server ${run.serverCpuMsPerRequest.toFixed(2)} ms/req${stack === undefined ? "" : `, stack ${stack.toFixed(2)} ms/req`}, bench process ${run.clientCpuPercent.toFixed(0)}% of a core`,
  );
  report(`${label}: latency`, run.latencies);
}

async function workerRuns(infra: Infra, tmp: string, trackId: string, sizes: number[]) {
  const dev = await startWorker(infra, tmp);
  // wrangler's node process and its workerd: the Worker, the dev proxy and the edge cache.
  const server = [{ pid: dev.pid, name: "node" }, ...(await descendants(dev.pid))];
  const serverPids = server.map((p) => p.pid);
  const base = `${dev.url}/api/v1/tracks/stream/${trackId}/hls/${KBPS}`;
  const urls = sizes.map((_, i) => `${base}/segment_${String(i).padStart(5, "0")}.m4s`);
  const stack = (await descendants(process.pid)).filter(
    (p) => !serverPids.includes(p.pid) && !ours.some((o) => o.pid === p.pid),
  );
  const stackPids = stack.map((p) => p.pid);
  const load = { ms: SECONDS * 1000, sizes, serverPids, stackPids };
  // Warms workerd and opens the 50 connections without caching anything: a 404 is not cached.
  await hammer({ ...load, ms: 1000, urls: [`${base}/segment_99999.m4s`], sizes: [0] });

  console.log(
    `Worker, ${CONCURRENCY} clients, ${SECONDS} s a run. CPU time counted as server: ${names(server)}; as stack: ${names(stack)}`,
  );
  // What any request costs through wrangler dev here: the floor under the figures below.
  const live = {
    urls: [`${dev.url}/api/v1/health/live`],
    sizes: [JSON.stringify({ status: "ok" }).length],
  };
  print("baseline: GET /health/live (no I/O)", await hammer({ ...load, ...live }));
  const cold = await hammer({ ...load, urls });
  const first = cold.firstPerUrl;
  console.log(
    `cold run: ${first.length} first requests per URL, then ${cold.latencies.length - first.length} more`,
  );
  report("cold: first request per URL (miss)", first);
  print("cold run, all requests", cold);
  print("warm (edge-cache hits)", await hammer({ ...load, urls, expectCache: "hit" }));
  let n = 0;
  const missPath = await hammer({ ...load, urls, expectCache: "miss", query: () => `?n=${n++}` });
  print("miss path (READY check + S3 GET + put)", missPath);
}

async function nginxRun(tmp: string, keys: string[], sizes: number[]) {
  if (!(await nginxInstalled())) {
    console.log(`\nnginx skipped: ${NGINX_MISSING}`);
    return;
  }
  const nginx = await startNginx(tmp);
  stops.push(nginx.stop);
  const pids = [nginx.pid, ...(await descendants(nginx.pid)).map((p) => p.pid)];
  const urls = keys.map((key) => `${nginx.url}/${key}`);
  const load = { ms: SECONDS * 1000, urls, sizes, serverPids: pids };
  const check = await hammer({ ...load, ms: 1000 });
  if (check.errors > 0) throw new Error(`nginx answers wrongly: ${JSON.stringify(check.outcomes)}`);
  console.log(`\nnginx (master + ${pids.length - 1} worker), same files from disk`);
  print("nginx", await hammer(load));
}

/**
 * CPU milliseconds of these processes and of their children that have exited (/proc stat: utime,
 * stime, cutime, cstime, in ticks of 10 ms): Postgres forks a backend for each connection, and
 * the Worker opens one per request.
 */
async function cpuMsWithChildren(pids: number[]): Promise<number> {
  let ticks = 0;
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    for (const i of [11, 12, 13, 14]) ticks += Number(fields[i] ?? 0);
  }
  return ticks * 10;
}

interface Proc {
  pid: number;
  name: string;
  /** Start time in clock ticks since boot: with the pid, names one process even after reuse. */
  start: string;
}

async function processes(): Promise<Array<Proc & { ppid: number; state: string }>> {
  const all = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    if (!stat) continue;
    // "pid (comm) state ppid …": comm may hold spaces, so split after its last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const [state = "", ppid = "0"] = fields;
    all.push({ pid: Number(entry), name, state, ppid: Number(ppid), start: fields[19] ?? "" });
  }
  return all;
}

/** Every live process below `root`. */
async function descendants(root: number): Promise<Proc[]> {
  const all = (await processes()).filter((p) => p.state !== "Z");
  const found: Proc[] = [];
  const queue = [root];
  for (let parent = queue.shift(); parent !== undefined; parent = queue.shift()) {
    for (const p of all.filter((q) => q.ppid === parent)) {
      found.push({ pid: p.pid, name: p.name, start: p.start });
      queue.push(p.pid);
    }
  }
  return found;
}

/** Which of `procs` still run (not zombies): there should be none once everything stopped. */
async function stillRunning(procs: Proc[]): Promise<Proc[]> {
  const live = (await processes()).filter((p) => p.state !== "Z");
  return procs.filter((s) => live.some((p) => p.pid === s.pid && p.start === s.start));
}

// Already there before anything started (tsx's esbuild service): not ours to stop.
const ours = await descendants(process.pid);
const load = () => loadavg().map((x) => x.toFixed(2));
console.log(`load average at start: ${load().join(" ")} (1, 5, 15 min; ${CONCURRENCY} clients)`);
const tmp = await mkdtemp(join(tmpdir(), "edge-music-bench-streaming-"));
stops.push(() => rm(tmp, { recursive: true, force: true }));
// A folder of its own: nginx's workers (www-data when we are root) must be able to enter it.
const nginxDir = await mkdtemp(join(tmpdir(), "edge-music-bench-nginx-"));
stops.push(() => rm(nginxDir, { recursive: true, force: true }));
try {
  const workerHalf = stops.length;
  const infra = await startInfra();
  stops.push(infra.stop);
  await migrate(infra.databaseUrl);
  const trackId = await insertReadyTrack(infra.databaseUrl);
  const { keys, sizes } = await writeSegments(infra, trackId, join(nginxDir, "www"));
  const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
  console.log(`${SEGMENTS} segments of ${(mean / 1000).toFixed(1)} KB on average`);
  await workerRuns(infra, tmp, trackId, sizes);
  // The Worker and the stack go before nginx runs: they would share the CPUs with it.
  await noteStarted();
  await stopSince(workerHalf);
  await nginxRun(nginxDir, keys, sizes);
} finally {
  await noteStarted();
  await stopAll();
  console.log(`load average at end: ${load().join(" ")}`);
  const left = (await stillRunning(started)).map((p) => `${p.pid} ${p.name}`);
  console.log(
    left.length === 0
      ? `nothing left running (of ${started.length} processes started)`
      : `still running: ${left.join(", ")}`,
  );
}
