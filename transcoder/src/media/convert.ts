import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { playbackGainDb } from "@edge-music/contracts";
import { log } from "../log.ts";
import { BadInputError } from "./bad-input.ts";
import { checkOutputs } from "./checks.ts";
import { durationArgs, hlsArgs, opusArgs, type SourceFile, wholeAacArgs } from "./ffmpeg/args.ts";
import { type Loudness, parseLoudness } from "./ffmpeg/loudness.ts";
import { fractionDone } from "./ffmpeg/progress.ts";
import { runFfmpeg, runTool } from "./ffmpeg/run.ts";
import { masterPlaylist } from "./hls/master-playlist.ts";
import {
  type MediaPlaylist,
  parseMediaPlaylist,
  raiseTargetDuration,
  rewriteInitUri,
} from "./hls/media-playlist.ts";
import { waveformFiles, writeWaveform } from "./waveform.ts";

export interface ConvertInput {
  /** Opened with its sniffed format's demuxer, never by its name. */
  source: SourceFile;
  /** An empty work folder. */
  outDir: string;
  rungs: readonly number[];
  duration: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** 0–1 over both runs. */
  onProgress?: (fraction: number) => void;
}

/** The AAC ladder takes ~3× the Opus run's time; the weights keep the bar moving evenly. */
const HLS_WEIGHT = 0.75;

/**
 * The two ffmpeg runs in parallel: the AAC HLS ladder, and the Opus files with the loudness scan
 * and the waveform's PCM (`waveformFiles(outDir).pcm`, read by finishOutputs).
 * ffmpeg 5.1 encodes one output after another on one core, so on two cores the Opus run hides
 * behind the HLS run. Either failing stops the other.
 */
export async function convert(input: ConvertInput): Promise<Loudness> {
  const { source, outDir, rungs, duration } = input;
  await Promise.all(rungs.map((rung) => mkdir(`${outDir}/hls/${rung}`, { recursive: true })));
  await mkdir(`${outDir}/audio`, { recursive: true });

  const stop = new AbortController();
  const signal = input.signal ? AbortSignal.any([input.signal, stop.signal]) : stop.signal;
  const done = { hls: 0, opus: 0 };
  const report = () => input.onProgress?.(HLS_WEIGHT * done.hls + (1 - HLS_WEIGHT) * done.opus);
  const run = (args: string[], part: keyof typeof done, cwd?: string) =>
    runFfmpeg(args, {
      cwd,
      signal,
      timeoutMs: input.timeoutMs,
      onPosition: (seconds) => {
        done[part] = fractionDone(seconds, duration);
        report();
      },
    }).catch((error: unknown) => {
      stop.abort(`the other ffmpeg run failed`);
      throw error;
    });

  const hls = hlsArgs({ source, outDir, rungs, duration });
  const [, opusStderr] = await Promise.all([
    run(hls.args, "hls", hls.cwd),
    run(opusArgs({ source, outDir, rungs, duration, waveform: waveformFiles(outDir).pcm }), "opus"),
  ]);
  const parsed = parseLoudness(opusStderr);
  if (!parsed) log.warn("no loudness summary in ffmpeg's output");
  return parsed ?? { integratedLufs: null, truePeakDbtp: null };
}

export interface Rendition {
  rung: number;
  playlist: MediaPlaylist;
}

/**
 * Reads back what ffmpeg wrote, fixes the init URIs and target durations, checks the outputs
 * against the source (BadInputError when they fall short), joins each rung into one whole AAC
 * file, and writes the master playlist
 * from measured sizes, with the playback gain from the loudness scan, and the waveform's JSON
 * (`waveformFiles(outDir).json`).
 */
export async function finishOutputs(input: {
  outDir: string;
  rungs: readonly number[];
  duration: number;
  /** The loudness scan's result (convert's answer): the master carries its playback gain. */
  loudness: Loudness;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<Rendition[]> {
  const { outDir, rungs, duration, loudness } = input;
  const renditions = await Promise.all(
    rungs.map(async (rung) => {
      const path = `${outDir}/hls/${rung}/index.m3u8`;
      const text = raiseTargetDuration(rewriteInitUri(await readFile(path, "utf8")));
      await writeFile(path, text);
      return { rung, playlist: parseMediaPlaylist(text) };
    }),
  );
  // The waveform is read while ffprobe measures the Opus files: its JSON is not needed before.
  const [opus] = await Promise.all([
    Promise.all(
      rungs.map(async (rung) => ({
        rung,
        duration: await outputDuration(`${outDir}/audio/${rung}k.opus`, input),
      })),
    ),
    writeWaveform(outDir, duration),
  ]);
  const problem = checkOutputs({ duration, renditions, opus });
  if (problem) throw new BadInputError(problem);
  // Each rung also as one whole file (`audio/<rung>k.m4a`): a copy of its segments, no encoding.
  await Promise.all(
    rungs.map((rung) =>
      runFfmpeg(wholeAacArgs(`${outDir}/hls/${rung}/index.m3u8`, `${outDir}/audio/${rung}k.m4a`), {
        timeoutMs: input.timeoutMs,
        ...(input.signal ? { signal: input.signal } : {}),
      }),
    ),
  );

  const variants = await Promise.all(
    renditions.map(async ({ rung, playlist }) => ({
      rung,
      targetDuration: playlist.targetDuration,
      segments: await Promise.all(
        playlist.segments.map(async (segment) => ({
          bytes: (await stat(`${outDir}/hls/${rung}/${segment.uri}`)).size,
          duration: segment.duration,
        })),
      ),
    })),
  );
  await writeFile(`${outDir}/hls/master.m3u8`, masterPlaylist(variants, playbackGainDb(loudness)));
  return renditions;
}

async function outputDuration(
  file: string,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<number> {
  const result = await runTool("ffprobe", durationArgs(file), options);
  const seconds = Number(result.stdout.trim());
  // An unreadable output counts as empty, and the duration check names the problem.
  return result.code === 0 && Number.isFinite(seconds) ? seconds : 0;
}
