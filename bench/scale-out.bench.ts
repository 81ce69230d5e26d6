// Scale-out of conversions: one batch of uploads converted by 1 transcoder process, then the same
// batch by 2 processes (real `node --import tsx transcoder/src/main.ts`, CONCURRENCY=1 each) on one
// queue of a local stack. Uploads go as the Worker makes them: the source put into S3, the track row,
// then the job added by the Worker's own enqueueConversion. Prints, per phase: the batch's wall time
// (first upload → last job finished), tracks/min, jobs per process and the processes' CPU time; then
// the speedup 2 vs 1. Checks that no job ran to completion twice (completions per job id in the
// processes' logs, BullMQ's attemptsMade) and that each track has one set of files (rows = objects).
// BENCH_TRACKS (default 8), BENCH_SOURCE_SECONDS (default 45), BENCH_ROUNDS (default 1: 1 then 2).
import { readFile, rm, stat } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "@edge-music/db/migrate";
import {
  type Infra,
  type ManagedProcess,
  startInfra,
  startTranscoderProcess,
} from "@edge-music/stack";
import { startUploadBatch, type Upload } from "../transcoder/test/bench/upload-batch.ts";
import { makeAudio } from "../transcoder/test/support/sources.ts";

const TRACKS = Number(process.env.BENCH_TRACKS ?? 8);
const SECONDS = Number(process.env.BENCH_SOURCE_SECONDS ?? 45);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Transcoder {
  name: string;
  proc: ManagedProcess;
  lines: string[];
}

/** One transcoder process as production runs it, configured from its environment. */
function startTranscoder(infra: Infra, name: string): Transcoder {
  const lines: string[] = [];
  const proc = startTranscoderProcess(infra, {
    env: { CONCURRENCY: "1", SHUTDOWN_TIMEOUT_MS: "10000" },
    log: (line) => {
      lines.push(line);
      if (line.includes('"level":"error"') || line.includes('"level":"warn"')) {
        console.log(`  [${name}] ${line}`);
      }
    },
  });
  return { name, proc, lines };
}

/** utime + stime of the process and of its waited-for children (ffmpeg, ffprobe), in ms. */
async function cpuMs(pid: number | undefined): Promise<number> {
  const text = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0) * 10;
}

/** Log messages of one kind per key (job id or track id), over every process. */
function countLogged(procs: Transcoder[], message: string, key: "jobId" | "trackId") {
  const counts = new Map<string, number>();
  const byProcess = new Map<string, number>();
  for (const { name, lines } of procs) {
    for (const line of lines) {
      if (!line.startsWith("{")) continue;
      const entry = JSON.parse(line) as Record<string, string>;
      if (entry.message !== message) continue;
      const id = entry[key] ?? "";
      counts.set(id, (counts.get(id) ?? 0) + 1);
      byProcess.set(name, (byProcess.get(name) ?? 0) + 1);
    }
  }
  return { counts, byProcess };
}

print(`machine: ${cpus().length} cores, shared with other work (figures move with it)`);
print(`load average at start (1, 5, 15 min): ${load()}`);
function print(line: string) {
  console.log(line);
}

const infra = await startInfra({ bucket: "bench" });
const source = join(tmpdir(), `scale-out-${crypto.randomUUID()}.mp3`);
const batch = startUploadBatch(infra);
const cleanup = async () => {
  await batch.close().catch(() => {});
  await infra.stop();
  await rm(source, { force: true });
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void cleanup().then(() => process.exit(130)));
}

interface Phase {
  processes: number;
  /** Load average (1 min) when the phase started. */
  load: number;
  wallMs: number;
  perProcess: string;
  cpuMs: number;
}

/** One batch through `count` transcoder processes, started before and stopped after it. */
async function phase(count: number, artistId: string, body: Buffer): Promise<Phase> {
  const procs = Array.from({ length: count }, (_, i) => startTranscoder(infra, `t${i + 1}`));
  try {
    // Every process takes jobs before the batch starts: none gets a head start.
    while ((await batch.workersCount()) < count) {
      if (procs.some((p) => p.proc.child.exitCode !== null)) throw new Error("a transcoder exited");
      await sleep(100);
    }
    // CPU from here on: the processes' start (tsx compiling the sources) is not the batch's.
    const cpuBefore = await Promise.all(procs.map((p) => cpuMs(p.proc.child.pid)));
    const started = Date.now();
    const uploads: Upload[] = [];
    for (let i = 0; i < TRACKS; i++) uploads.push(await batch.upload(artistId, body));
    await batch.waitForJobs(uploads.map((u) => u.jobId));
    const jobs = await batch.jobs(uploads.map((u) => u.jobId));
    const cpu = await Promise.all(procs.map((p) => cpuMs(p.proc.child.pid)));
    await verify(procs, uploads, jobs);
    const { byProcess } = countLogged(procs, "job completed", "jobId");
    return {
      processes: count,
      load: loadavg()[0] ?? 0,
      wallMs: Math.max(...jobs.map((job) => job.finishedOn)) - started,
      perProcess: procs.map((p) => `${p.name} ${byProcess.get(p.name) ?? 0}`).join(", "),
      cpuMs: cpu.reduce((a, b) => a + b, 0) - cpuBefore.reduce((a, b) => a + b, 0),
    };
  } finally {
    await Promise.all(procs.map((p) => p.proc.stop(15_000)));
  }
}

/** No job ran to completion twice, no track was converted twice, each has one set of files. */
async function verify(
  procs: Transcoder[],
  uploads: Upload[],
  jobs: Array<{ id: string; attemptsMade: number }>,
): Promise<void> {
  const completed = countLogged(procs, "job completed", "jobId").counts;
  const converted = countLogged(procs, "converted", "trackId").counts;
  const problems: string[] = [];
  for (const { trackId, jobId } of uploads) {
    if (completed.get(jobId) !== 1) problems.push(`${jobId} completed ${completed.get(jobId)}×`);
    const times = converted.get(trackId);
    if (times !== 1) problems.push(`${trackId} converted ${times}×`);
  }
  for (const job of jobs) {
    if (job.attemptsMade !== 1) problems.push(`${job.id} attemptsMade ${job.attemptsMade}`);
  }
  const files = await Promise.all(uploads.map((u) => batch.filesOf(u.trackId)));
  if (new Set(files).size !== 1) problems.push(`file counts differ: ${files.join(", ")}`);
  if (problems.length > 0)
    throw new Error(`duplicate or missing work:\n  ${problems.join("\n  ")}`);
  print(
    `  checked: ${uploads.length} jobs completed once each (logs and attemptsMade), ` +
      `${uploads.length} tracks converted once, ${files[0]} files each (rows = objects)`,
  );
}

try {
  await migrate(infra.databaseUrl);
  await makeAudio(source, SECONDS, ["-c:a", "libmp3lame", "-b:a", "320k"]);
  const body = await readFile(source);
  const mb = ((await stat(source)).size / 1e6).toFixed(1);
  print(
    `batch: ${TRACKS} uploads of a ${SECONDS} s 320k MP3 (${mb} MB), added by the Worker's ` +
      "enqueueConversion; transcoder processes with CONCURRENCY=1 on one queue",
  );
  const artistId = await batch.insertArtist();
  const results: Phase[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const count of [1, 2]) {
      print(`round ${round}, ${count} process(es), load ${load()}`);
      const result = await phase(count, artistId, body);
      results.push(result);
      print(
        `  wall ${s(result.wallMs)}, ${((TRACKS * 60_000) / result.wallMs).toFixed(2)} tracks/min, ` +
          `jobs per process: ${result.perProcess}, CPU of the processes ${s(result.cpuMs)}`,
      );
    }
  }
  print("");
  for (let round = 1; round <= ROUNDS; round++) {
    const [one, two] = results.slice((round - 1) * 2, round * 2);
    if (!one || !two) continue;
    print(
      `round ${round}: 1 process ${s(one.wallMs)} vs 2 processes ${s(two.wallMs)}: ` +
        `speedup ${(one.wallMs / two.wallMs).toFixed(2)}×, CPU per track ` +
        `${s(one.cpuMs / TRACKS)} vs ${s(two.cpuMs / TRACKS)}; load at the phases' ends ` +
        `${one.load.toFixed(1)} vs ${two.load.toFixed(1)} (a quiet 2-core machine allows at most ` +
        "2×; when the load moves between phases, the speedup moves with it)",
    );
  }
} finally {
  print(`load average at end (1, 5, 15 min): ${load()}`);
  await cleanup();
}
