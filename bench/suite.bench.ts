// Where the test suite's time goes: runs `vitest run` (every project, or those named in
// BENCH_SUITE_PROJECTS, comma-separated; only the files matching BENCH_SUITE_FILES, comma-separated
// filters as vitest takes them, if set) and prints (BENCH_SUITE_TIMELINE names a file to keep
// each file's start and end in, one JSON line each; otherwise they are read and thrown away)
// 1. vitest's own duration, the machine's CPU time in that span and how much of two cores' worth
//    stood idle (from /proc/stat: every process on the machine, ours or not);
// 2. each project's span (first file started → last ended), its files and their summed time;
// 3. the longest files;
// 4. CPU seconds by kind of process (Chromium, workerd, ffmpeg, Postgres, vitest's own processes,
//    wrangler, the transcoder, …), sampled from /proc every two seconds. A lower bound: a process
//    that lives less than two seconds between samples (a short ffmpeg or ffprobe run) is not
//    seen, and one that ends loses its last seconds. The sampler's own cost is shown too.
// The suite is bound by CPU on a two-core machine: a change that does not lower the CPU seconds
// here moves time around rather than saving it. Compare figures from the same machine and session.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const reporter = fileURLToPath(new URL("support/suite-reporter.ts", import.meta.url));
const projects = (process.env.BENCH_SUITE_PROJECTS ?? "").split(",").filter(Boolean);
const files = (process.env.BENCH_SUITE_FILES ?? "").split(",").filter(Boolean);
const kept = process.env.BENCH_SUITE_TIMELINE;
const timeline = kept ?? join(tmpdir(), `edge-music-suite-${process.pid}.jsonl`);
const TICK = 100; // USER_HZ: /proc reports CPU time in hundredths of a second on Linux.

/** What a process is, from its command line. */
function kindOf(cmdline: string): string {
  const has = (part: string) => cmdline.includes(part);
  if (has("chromium")) {
    // Its browser process and, by --type, its renderers, GPU (compositing) and utility processes.
    const type = /--type=([\w-]+)/.exec(cmdline)?.[1];
    const service = /--utility-sub-type=([\w.]+)/.exec(cmdline)?.[1];
    return `Chromium (${service ?? type ?? "browser"})`;
  }
  if (has("workerd")) return "workerd";
  if (/(^|\/)ffmpeg\0/.test(cmdline)) return "ffmpeg";
  if (/(^|\/)ffprobe\0/.test(cmdline)) return "ffprobe";
  if (has("postgres")) return "Postgres";
  if (has("pgbouncer")) return "PgBouncer";
  if (has("redis-server")) return "Redis";
  if (has("esbuild")) return "esbuild";
  if (has("dev-worker-main")) return "wrangler (node)";
  if (has("s3-server-main")) return "S3 store (node)";
  if (has("transcoder")) return "transcoder (node)";
  if (has("suppress-warnings")) return "vitest test processes (node)";
  if (has("vitest.mjs")) return "vitest main process (node)";
  const args = cmdline.split("\0");
  if (has("node")) {
    const script = args.find((arg) => /\.(m?js|ts)$/.test(arg));
    return `other node (${script?.split("/").slice(-2).join("/") ?? args.slice(0, 3).join(" ")})`;
  }
  // No command line (a kernel thread): its stat line, "pid (comm) …".
  const name = has("\0") ? args[0]?.split("/").pop() : /\((.*?)\)/.exec(cmdline)?.[1];
  return `other (${name})`;
}

/** CPU seconds of each process seen so far, by pid (the last sample wins). */
const seen = new Map<number, { kind: string; seconds: number }>();
/** Synchronous reads: a few hundred small files a sample, cheaper than as many promises. */
const read = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
};

/** Busy and idle CPU time of the whole machine so far, seconds (the `cpu` line of /proc/stat). */
function machineCpu(): { busy: number; idle: number } {
  const [first] = read("/proc/stat").split("\n");
  const [user, nice, system, idle, iowait, irq, softirq, steal] = (first ?? "")
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return {
    busy: ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) / TICK,
    idle: ((idle ?? 0) + (iowait ?? 0) + (steal ?? 0)) / TICK,
  };
}

function sampleProcesses(): void {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const stat = read(`/proc/${entry}/stat`);
    if (!stat) continue;
    // "pid (comm) state ppid … utime stime …": fields 14 and 15, counted after comm's ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const seconds = (Number(fields[11]) + Number(fields[12])) / TICK;
    const known = seen.get(pid);
    if (known) {
      known.seconds = Math.max(known.seconds, seconds);
      continue;
    }
    const kind =
      pid === process.pid ? "this bench's sampler" : kindOf(read(`/proc/${entry}/cmdline`) || stat);
    // Processes that ran before the suite count only from here on.
    seen.set(pid, { kind, seconds });
  }
}

const startCpu = machineCpu();
sampleProcesses();
const baseline = new Map([...seen].map(([pid, p]) => [pid, p.seconds]));
await rm(timeline, { force: true }); // the reporter appends
const started = performance.now();
const sampler = setInterval(sampleProcesses, 2000);

const vitest = spawn(
  process.execPath,
  [
    join(root, "node_modules/vitest/vitest.mjs"),
    "run",
    // Files in the order of a fresh clone, as CI runs them (largest first), not by the durations
    // vitest cached from earlier runs in this copy: the order alone moves the whole run by 5 %.
    "--no-cache",
    ...projects.flatMap((name) => ["--project", name]),
    ...files,
    "--reporter=default",
    `--reporter=${reporter}`,
  ],
  {
    cwd: root,
    env: { ...process.env, SUITE_TIMELINE: timeline },
    stdio: ["ignore", "ignore", "inherit"],
  },
);
const code = await new Promise<number | null>((done) => vitest.on("exit", done));
clearInterval(sampler);
sampleProcesses();
const wall = (performance.now() - started) / 1000;
const endCpu = machineCpu();

interface Line {
  event: "start" | "end";
  at: number;
  project: string;
  file: string;
  seconds?: number;
}
const lines = (await readFile(timeline, "utf8").catch(() => ""))
  .split("\n")
  .filter(Boolean)
  .map((text) => JSON.parse(text) as Line);
if (!kept) await rm(timeline, { force: true });

const busy = endCpu.busy - startCpu.busy;
const idle = endCpu.idle - startCpu.idle;
console.log(`vitest: exit ${code}, ${wall.toFixed(1)} s of wall time`);
console.log(
  `machine: ${busy.toFixed(0)} CPU s busy, ${idle.toFixed(0)} CPU s idle ` +
    `(${((100 * idle) / (busy + idle)).toFixed(0)} % of all cores' time)`,
);

console.log("\nproject        span (s)          files  summed file time (s)");
const byProject = new Map<string, { from: number; to: number; files: number; summed: number }>();
for (const line of lines) {
  const p = byProject.get(line.project) ?? { from: line.at, to: line.at, files: 0, summed: 0 };
  p.from = Math.min(p.from, line.at);
  p.to = Math.max(p.to, line.at);
  if (line.event === "end") {
    p.files++;
    p.summed += line.seconds ?? 0;
  }
  byProject.set(line.project, p);
}
for (const [name, p] of [...byProject].sort((a, b) => a[1].from - b[1].from)) {
  const span = `${p.from.toFixed(0)} → ${p.to.toFixed(0)}`;
  console.log(
    `${name.padEnd(14)} ${span.padEnd(17)} ${String(p.files).padStart(5)}  ${p.summed.toFixed(0).padStart(8)}`,
  );
}

console.log("\nlongest files (s)");
for (const line of lines
  .filter((l) => l.event === "end")
  .sort((a, b) => (b.seconds ?? 0) - (a.seconds ?? 0))
  .slice(0, 12)) {
  console.log(`${(line.seconds ?? 0).toFixed(1).padStart(7)}  ${line.project} ${line.file}`);
}

console.log("\nCPU s by kind of process (sampled every 2 s: a lower bound)");
const byKind = new Map<string, number>();
for (const [pid, p] of seen) {
  const spent = p.seconds - (baseline.get(pid) ?? 0);
  if (spent > 0) byKind.set(p.kind, (byKind.get(p.kind) ?? 0) + spent);
}
for (const [kind, seconds] of [...byKind].sort((a, b) => b[1] - a[1])) {
  if (seconds >= 0.5) console.log(`${seconds.toFixed(1).padStart(7)}  ${kind}`);
}
process.exit(code ?? 1);
