// The ffmpeg-only figures of bench/transcode.bench.ts, built from the argv builders the job uses,
// so (a) is exactly our HLS command, (b) differs from our job only in how the outputs are split
// between processes, and (d)/(e) are exactly our Opus command without and with the waveform.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { hlsArgs, opusArgs, type SourceFile } from "../../src/media/ffmpeg/args.ts";
import { runFfmpeg } from "../../src/media/ffmpeg/run.ts";
import { probeSource } from "../../src/media/probe.ts";
import { selectRungs } from "../../src/media/rungs.ts";
import { sniffSource } from "../../src/media/source-format.ts";

export { makeAudio } from "../support/sources.ts";

const TIMEOUT_MS = 20 * 60_000;

/** The source as the job opens it (its path and sniffed format). */
export interface BenchSource extends SourceFile {
  /** What the job's probe finds: the same duration bound and ladder for every figure. */
  duration: number;
  rungs: number[];
  codec: string;
}

export async function describeSource(path: string): Promise<BenchSource> {
  const file = { path, format: await sniffSource(path) };
  const info = await probeSource(file, { timeoutMs: TIMEOUT_MS, maxDurationSeconds: 1800 });
  return { ...file, duration: info.duration, rungs: selectRungs(info), codec: info.codec };
}

/** A fresh output folder with the `hls/<rung>` and `audio` folders the runs write into. */
async function outputFolder(workRoot: string, rungs: readonly number[]): Promise<string> {
  const outDir = await mkdtemp(join(workRoot, "out-"));
  await Promise.all(rungs.map((r) => mkdir(join(outDir, "hls", String(r)), { recursive: true })));
  await mkdir(join(outDir, "audio"));
  return outDir;
}

async function timed(
  workRoot: string,
  source: BenchSource,
  runs: (outDir: string) => Promise<void>,
) {
  const outDir = await outputFolder(workRoot, source.rungs);
  try {
    const started = performance.now();
    await runs(outDir);
    return performance.now() - started;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/** (a) The single HLS ffmpeg run of the job (hlsArgs), alone. Milliseconds. */
export function bareHls(workRoot: string, source: BenchSource): Promise<number> {
  return timed(workRoot, source, async (outDir) => {
    const { args, cwd } = hlsArgs({ source, outDir, ...pick(source) });
    await runFfmpeg(args, { cwd, timeoutMs: TIMEOUT_MS });
  });
}

/**
 * (b) One ffmpeg process per output, one after another: each HLS rendition alone (hlsArgs with
 * one rung), each Opus file alone (opusArgs with one rung, its loudness output cut off), the
 * waveform's PCM alone (likewise), then the loudness scan alone (opusArgs with no rung).
 * Milliseconds.
 */
export function naivePipeline(workRoot: string, source: BenchSource): Promise<number> {
  return timed(workRoot, source, async (outDir) => {
    const base = { source, outDir, duration: source.duration };
    for (const rung of source.rungs) {
      const { args, cwd } = hlsArgs({ ...base, rungs: [rung] });
      await runFfmpeg(args, { cwd, timeoutMs: TIMEOUT_MS });
    }
    for (const rung of source.rungs) {
      const args = opusArgs({ ...base, rungs: [rung] });
      // The loudness scan is the last output: it starts at the last `-map`.
      const scanStart = args.lastIndexOf("-map");
      await runFfmpeg(args.slice(0, scanStart), { timeoutMs: TIMEOUT_MS });
    }
    const waveform = opusArgs({ ...base, rungs: [], waveform: join(outDir, "waveform.pcm") });
    await runFfmpeg(waveform.slice(0, waveform.lastIndexOf("-map")), { timeoutMs: TIMEOUT_MS });
    await runFfmpeg(opusArgs({ ...base, rungs: [] }), { timeoutMs: TIMEOUT_MS });
  });
}

/**
 * (d)/(e) The job's Opus run (opusArgs: every Opus file and the loudness scan), without or with
 * the waveform's PCM output: what the waveform adds to the conversion. Milliseconds.
 */
export function opusRun(
  workRoot: string,
  source: BenchSource,
  withWaveform: boolean,
): Promise<number> {
  return timed(workRoot, source, async (outDir) => {
    const waveform = withWaveform ? join(outDir, "waveform.pcm") : undefined;
    const args = opusArgs({ source, outDir, ...pick(source), waveform });
    await runFfmpeg(args, { timeoutMs: TIMEOUT_MS });
  });
}

const pick = ({ duration, rungs }: BenchSource) => ({ duration, rungs });
