// What one conversion costs, for a 4-minute 320 kbps MP3 and a 4-minute FLAC of music-like audio
// (pink noise, a tone, a tremolo), three figures measured side by side in one run:
// (a) the bare HLS ffmpeg command of our job (hlsArgs: one process, every AAC rendition), alone;
// (b) a naive pipeline: one ffmpeg process per output, one after another (each HLS rendition,
//     each Opus file, then the loudness scan), ffmpeg only: no storage, no database;
// (c) our job, from the upload (source put into S3, track row, Queue.add) to READY, run by the
//     real processor in this process on its own queue against the local stack;
// (d) the job's Opus ffmpeg command (opusArgs: Opus files + loudness scan) without the waveform's
//     PCM output, and (e) the same with it (what the job runs): the waveform's cost.
// Rounds are interleaved (a, b, c, d, e, a, b, c, e, d, …: (d) and (e) swap places every round)
// so drifting load hits every figure alike.
// Wall time, and the CPU time of the ffmpeg/ffprobe processes (what the load cannot inflate).
// Targets: (c) ≤ 1.2 × (a) + 2 s, (c) clearly faster than (b) (at most 0.8 × (b)), and the
// waveform costs at most 5 %: (e) ≤ 1.05 × (d), in CPU time (and in wall time, load permitting).
// BENCH_ROUNDS (default 3), BENCH_SOURCE_SECONDS (default 240). Prints figures; asserts nothing.
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "@edge-music/db/migrate";
import { startInfra } from "@edge-music/stack";
import {
  type BenchSource,
  bareHls,
  describeSource,
  makeAudio,
  naivePipeline,
  opusRun,
} from "../transcoder/test/bench/ffmpeg-runs.ts";
import { type JobRunner, startJobRunner } from "../transcoder/test/bench/job-runner.ts";
import { summarize } from "./support/stats.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SOURCE_SECONDS = Number(process.env.BENCH_SOURCE_SECONDS ?? 240);
const FIGURES = ["a", "b", "c", "d", "e"] as const;
type Figure = (typeof FIGURES)[number];

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

// The in-process transcoder logs JSON lines with console.log. Its "converted" line carries the
// job's phase timings, kept for (c); its other info lines are dropped so the figures stay
// readable (warnings and errors still print).
let phases: Record<string, number> | undefined;
/** (c)'s steps before the processor: upload and queueing. */
let steps: Record<string, number> = {};
const print = console.log.bind(console);
console.log = (...args: unknown[]) => {
  const [line] = args;
  if (typeof line === "string" && line.includes('"service":"transcoder"')) {
    const entry = JSON.parse(line) as { level: string; message: string; timings?: typeof phases };
    if (entry.message === "converted") phases = entry.timings;
    if (entry.level === "info") return;
  }
  print(...args);
};

/**
 * CPU time of the child processes waited for so far (every ffmpeg and ffprobe run, ours or the
 * job's: the stack's servers run until the end), from /proc/self/stat in 1/100 s. Unlike wall
 * time, it hardly moves with the machine's load.
 */
async function childCpuMs(): Promise<number> {
  const stat = await readFile("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

print(
  `machine: ${cpus().length} cores, shared with other work running at the same time (builds, ` +
    "tests of other sessions): every figure moves with it; read them side by side, per round",
);
print(`load average at start (1, 5, 15 min): ${load()}`);

const work = await mkdtemp(join(tmpdir(), "bench-transcode-"));
const infra = await startInfra({ bucket: "bench" });
let runner: JobRunner | undefined;
const cleanup = async () => {
  await runner?.close().catch(() => {});
  await infra.stop();
  await rm(work, { recursive: true, force: true });
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void cleanup().then(() => process.exit(130)));
}

try {
  await migrate(infra.databaseUrl);
  runner = await startJobRunner(infra);
  const job = runner;

  const mp3 = join(work, "song-320.mp3");
  const flac = join(work, "song.flac");
  await makeAudio(mp3, SOURCE_SECONDS, ["-c:a", "libmp3lame", "-b:a", "320k"]);
  await makeAudio(flac, SOURCE_SECONDS, ["-c:a", "flac", "-sample_fmt", "s16"]);
  const sources = [
    { label: "MP3 320k", source: await describeSource(mp3) },
    { label: "FLAC", source: await describeSource(flac) },
  ];
  for (const { label, source } of sources) {
    const mb = (await stat(source.path)).size / 1e6;
    print(
      `source ${label}: ${mb.toFixed(1)} MB, ${source.codec}, ${source.duration.toFixed(1)} s, ` +
        `rungs ${source.rungs.join("/")} kbps`,
    );
  }
  print(
    "(a) bare HLS ffmpeg run (hlsArgs) | (b) naive: 3 HLS + 3 Opus runs + loudness scan, " +
      "sequential | (c) our job: upload → READY | (d) Opus run without the waveform | (e) with it " +
      "| cpu: ffmpeg + ffprobe CPU time of the figure",
  );

  const measure: Record<Figure, (source: BenchSource) => Promise<number>> = {
    a: (source) => bareHls(work, source),
    b: (source) => naivePipeline(work, source),
    c: async (source) => {
      phases = undefined;
      const times = await job.run(source.path);
      steps = { "put+row+add": times.enqueue, pickup: times.pickup };
      return times.total;
    },
    d: (source) => opusRun(work, source, false),
    e: (source) => opusRun(work, source, true),
  };
  const samples = sources.map(
    () =>
      Object.fromEntries(
        FIGURES.map((figure) => [figure, { wall: [] as number[], cpu: [] as number[] }]),
      ) as Record<Figure, { wall: number[]; cpu: number[] }>,
  );
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, { label, source }] of sources.entries()) {
      const taken = samples[i];
      if (!taken) continue;
      const line: string[] = [`round ${round} ${label.padEnd(8)}`];
      const order = round % 2 === 1 ? FIGURES : (["a", "b", "c", "e", "d"] as const);
      for (const figure of order) {
        const cpuBefore = await childCpuMs();
        const wall = await measure[figure](source);
        const cpu = (await childCpuMs()) - cpuBefore;
        taken[figure].wall.push(wall);
        taken[figure].cpu.push(cpu);
        line.push(`(${figure}) ${s(wall).padStart(7)} cpu ${s(cpu).padStart(7)}`);
      }
      const detail = Object.entries({ ...steps, ...phases })
        .map(([phase, ms]) => `${phase} ${s(ms)}`)
        .join(", ");
      print(`${line.join("  ")}  load ${load()}`);
      const cores = (taken.c.cpu.at(-1) ?? 0) / (taken.c.wall.at(-1) ?? 1);
      print(`${" ".repeat(17)}(c) steps: ${detail}; cpu/wall ${cores.toFixed(2)} (2 cores max)`);
    }
  }

  print("");
  for (const [i, { label }] of sources.entries()) {
    const taken = samples[i];
    if (!taken) continue;
    const median = (figure: Figure, of: "wall" | "cpu" = "wall") =>
      summarize(taken[figure][of]).p50;
    for (const figure of FIGURES) {
      print(
        `${label.padEnd(8)} (${figure}) wall ${taken[figure].wall.map(s).join(", ")}  ` +
          `median ${s(median(figure))}  | cpu median ${s(median(figure, "cpu"))}`,
      );
    }
    const limit = 1.2 * median("a") + 2_000;
    const ratio = median("c") / median("b");
    print(
      `${label.padEnd(8)} target (c) ≤ 1.2 × (a) + 2 s: ${s(median("c"))} vs ` +
        `1.2 × ${s(median("a"))} + 2 s = ${s(limit)}: ${median("c") <= limit ? "MET" : "MISSED"}`,
    );
    print(
      `${label.padEnd(8)} target (c) clearly faster than (b): ${s(median("c"))} vs ` +
        `${s(median("b"))}, (c)/(b) = ${ratio.toFixed(2)} (≤ 0.80): ${ratio <= 0.8 ? "MET" : "MISSED"}`,
    );
    const cost = (of: "wall" | "cpu") => median("e", of) / median("d", of) - 1;
    const percent = (of: "wall" | "cpu") => `${(100 * cost(of)).toFixed(1)} %`;
    print(
      `${label.padEnd(8)} target waveform ≤ 5 % of the Opus run: (e)/(d) − 1 = cpu ` +
        `${percent("cpu")}, wall ${percent("wall")}: ${cost("cpu") <= 0.05 ? "MET" : "MISSED"} (cpu)`,
    );
  }
} finally {
  print(`load average at end (1, 5, 15 min): ${load()}`);
  await cleanup();
}
