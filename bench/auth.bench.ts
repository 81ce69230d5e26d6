// The cost of passwords in the Worker (argon2id, m=19456 KiB, t=2, p=1; target ≤ 50 ms a hash).
// Workers run through wrangler's unstable_startWorker (what `wrangler dev` runs), unwatched.
// 1. hashPassword / verifyPassword inside workerd: a bench Worker
//    (worker/scripts/argon2-bench-worker.ts), one operation per request, sequential. Three views
//    of each: workerd's CPU time read from /proc around each request (what Cloudflare bills), the
//    client's wall time (both net of an empty request's mean), and performance.now() inside the
//    request. On Cloudflare that clock stands still until the next I/O; the local workerd's
//    moves, so it is shown as a check.
// 2. POST /api/v1/users/auth/login on the local stack (real Postgres, Redis, S3 server) against
//    the real Worker (wrangler.toml, STORAGE_DRIVER=s3) at concurrency 1 and 4, with the right
//    password and with unknown emails (these spend a decoy verification and record failures per
//    address and per email, so each request has its own address and email to stay clear of the
//    limits).
// BENCH_N (hashes per figure, default 100) and BENCH_SECONDS (per load run, default 10).
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { migrate } from "@edge-music/db/migrate";
import { startDevWorker, startInfra, startStackWorker, workerProcessId } from "@edge-music/stack";
import { drive, type LoadResult } from "./support/load.ts";
import { childProcesses, cpuNs } from "./support/proc-cpu.ts";
import { report } from "./support/stats.ts";

const N = Number(process.env.BENCH_N ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const root = fileURLToPath(new URL("..", import.meta.url));
const rootConfig = join(root, "wrangler.toml");

// Everything started is stopped in reverse order, on success, on failure and on Ctrl-C.
// One shared promise: after Ctrl-C the main flow fails too, and its `finally` must wait for the
// same stop rather than exit while the stack is still going down.
const stops: Array<() => Promise<void>> = [];
let stopping: Promise<void> | undefined;
const stopAll = () =>
  (stopping ??= (async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  })());
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void stopAll().then(() => process.exit(130)));
}

async function argon2InWorkerd(tmp: string): Promise<void> {
  const compatibilityDate = /compatibility_date\s*=\s*"([^"]+)"/.exec(
    await readFile(rootConfig, "utf8"),
  )?.[1];
  const config = join(tmp, "argon2", "wrangler.toml");
  await mkdir(join(tmp, "argon2"));
  const entry = join(root, "worker", "scripts", "argon2-bench-worker.ts");
  const toml = [
    `name = "argon2-bench"`,
    `main = ${JSON.stringify(entry)}`,
    `compatibility_date = "${compatibilityDate}"`,
    `compatibility_flags = ["nodejs_compat"]`,
  ];
  await writeFile(config, `${toml.join("\n")}\n`);
  const dev = await startDevWorker({
    config,
    persistTo: join(tmp, "argon2", "state"),
  });
  stops.push(dev.stop);
  const workerd = await childProcesses(workerProcessId(dev), "workerd");

  const measure = async (path: string, n: number) => {
    const cpu: number[] = [];
    const wall: number[] = [];
    const clock: number[] = [];
    for (let i = -5; i < n; i++) {
      const cpuBefore = await cpuNs(workerd);
      const sent = performance.now();
      const answer = (await (await fetch(`${dev.url}${path}`)).json()) as { clockMs: number };
      const took = performance.now() - sent;
      if (i < 0) continue; // warm-up: instantiating argon2 and the first hashes
      cpu.push(((await cpuNs(workerd)) - cpuBefore) / 1e6);
      wall.push(took);
      clock.push(answer.clockMs);
    }
    return { cpu, wall, clock };
  };
  const empty = await measure("/empty", N * 2);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const net = (xs: number[], base: number[]) => xs.map((x) => x - mean(base));

  console.log(`argon2id inside workerd (${workerd.length} workerd processes), sequential requests`);
  report("empty request: workerd CPU (baseline)", empty.cpu);
  report("empty request: wall (baseline)", empty.wall);
  for (const path of ["/hash", "/verify"]) {
    const name = path === "/hash" ? "hashPassword" : "verifyPassword";
    const result = await measure(path, N);
    report(`${name}: workerd CPU, net`, net(result.cpu, empty.cpu));
    report(`${name}: wall, net`, net(result.wall, empty.wall));
    report(`${name}: performance.now() inside`, result.clock);
  }
  await dev.stop(); // before the stack starts: the two would share the CPUs
}

function printLoad(label: string, result: LoadResult): void {
  const statuses = Object.entries(result.statuses).map(([status, n]) => `${status}×${n}`);
  console.log(`${label}: ${result.requestsPerSecond.toFixed(1)} req/s (${statuses.join(", ")})`);
  report(`${label}: latency`, result.latencies);
}

async function loginsOnTheLocalStack(tmp: string): Promise<void> {
  const infra = await startInfra();
  stops.push(infra.stop);
  await migrate(infra.databaseUrl);
  const dev = await startStackWorker(infra, { tmp });
  stops.push(dev.stop);

  const post = (path: string, body: object, ip: string) =>
    fetch(`${dev.url}/api/v1/users/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": ip },
      body: JSON.stringify(body),
    });
  const account = { email: `bench-${randomUUID()}@bench.test`, password: `pw-${randomUUID()}` };
  const username = `bench_${randomUUID().slice(0, 8)}`;
  const registered = await post("/register", { username, ...account }, "10.0.0.1");
  if (registered.status !== 201) throw new Error(`register: ${registered.status}`);
  for (let i = 0; i < 5; i++) await (await post("/login", account, "10.0.0.1")).arrayBuffer();

  console.log(`\nPOST /auth/login on the local stack, ${SECONDS} s per run`);
  for (const concurrency of [1, 4]) {
    const result = await drive(concurrency, SECONDS * 1000, () =>
      post("/login", account, "10.0.0.1"),
    );
    printLoad(`right password, c=${concurrency}`, result);
  }
  let address = 0;
  for (const concurrency of [1, 4]) {
    const result = await drive(concurrency, SECONDS * 1000, () => {
      const n = ++address;
      const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      return post(
        "/login",
        { email: `nobody-${randomUUID()}@bench.test`, password: "not-the-password" },
        ip,
      );
    });
    printLoad(`unknown email, c=${concurrency}`, result);
  }
}

const tmp = await mkdtemp(join(tmpdir(), "edge-music-bench-auth-"));
stops.push(() => rm(tmp, { recursive: true, force: true }));
try {
  await argon2InWorkerd(tmp);
  await loginsOnTheLocalStack(tmp);
} finally {
  await stopAll();
}
