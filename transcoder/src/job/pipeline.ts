import { mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AudioJobPayload } from "@edge-music/contracts";
import {
  type CoverUpload,
  measureOutputs,
  type OutputFile,
  type OutputPlan,
  planOutputs,
} from "../io/outputs.ts";
import { eachLimit, type Storage, type UploadItem } from "../io/storage.ts";
import type { Completion, TrackStore } from "../io/track-store.ts";
import { log } from "../log.ts";
import { convert, finishOutputs } from "../media/convert.ts";
import { probeSource } from "../media/probe.ts";
import { selectRungs } from "../media/rungs.ts";
import { sniffSource } from "../media/source-format.ts";
import { embeddedCover } from "./cover.ts";
import type { ProgressReporter } from "./progress-reporter.ts";

export interface PipelineContext {
  storage: Storage;
  store: TrackStore;
  maxDurationSeconds: number;
  ffmpegTimeoutMs: number;
  uploadConcurrency: number;
  /** Where work folders are made (the OS temp folder by default). */
  workRoot?: string;
  progress: ProgressReporter;
  signal?: AbortSignal;
}

export type ConversionResult =
  | { status: "ready"; rungs: number[]; duration: number }
  | { status: "skipped"; reason: string };

/** Progress milestones (percent): the ffmpeg runs take most of the time. */
const PROBED = 5;
const CONVERTED = 90;
const UPLOADED = 99;

/**
 * Download → probe → cover → convert → check → upload → record. The work folder is removed whatever
 * happens. Errors propagate: the attempt (attempt.ts) decides between retry and FAILED.
 */
export async function convertTrack(
  payload: AudioJobPayload,
  ctx: PipelineContext,
): Promise<ConversionResult> {
  const { trackId } = payload;
  const work = await mkdtemp(join(ctx.workRoot ?? tmpdir(), "transcode-"));
  const clock = phaseClock();
  try {
    const download = join(work, "download");
    await ctx.storage.download(payload.sourceKey, download, ctx.signal);
    clock.lap("download");
    // Named and opened as what its bytes are, never as the upload's name says (sniffSource).
    const format = await sniffSource(download);
    const source = { path: join(work, `source.${format}`), format };
    await rename(download, source.path);
    const options = { timeoutMs: ctx.ffmpegTimeoutMs, signal: ctx.signal };
    const info = await probeSource(source, {
      ...options,
      maxDurationSeconds: ctx.maxDurationSeconds,
    });
    const rungs = selectRungs(info);
    clock.lap("probe");
    const cover = await embeddedCover({
      ...options,
      payload,
      source,
      info,
      work,
      store: ctx.store,
    });
    clock.lap("cover");
    log.info("converting", {
      trackId,
      format,
      codec: info.codec,
      kbps: Math.round(info.kbps),
      rungs,
    });
    ctx.progress.report(PROBED);

    const outDir = join(work, "out");
    const { duration } = info;
    const loudness = await convert({
      ...options,
      source,
      outDir,
      rungs,
      duration,
      onProgress: (done) => ctx.progress.report(PROBED + (CONVERTED - PROBED) * done),
    });
    clock.lap("ffmpeg");
    const renditions = await finishOutputs({ ...options, outDir, rungs, duration, loudness });
    const plan = await measureOutputs(
      planOutputs(
        trackId,
        outDir,
        renditions.map(({ rung, playlist }) => ({ rung, segments: playlist.segments.length })),
      ),
    );
    clock.lap("check");
    const files = await uploadOutputs(plan, ctx);
    // Last, just before the commit that names it: the shortest time as an unreferenced object.
    if (cover) await ctx.storage.upload(cover, ctx.signal);
    clock.lap("upload");

    await ctx.progress.settle();
    const written = [...files.map((f) => f.key), plan.waveform.key];
    if (!(await commit(ctx, trackId, { duration, loudness, files }, cover, written))) {
      return { status: "skipped", reason: "the track was deleted during conversion" };
    }
    clock.lap("commit");
    await removeSource(ctx, trackId, payload.sourceKey);
    log.info("converted", { trackId, rungs, files: files.length, timings: clock.timings });
    return { status: "ready", rungs, duration };
  } finally {
    await ctx.progress.settle();
    await rm(work, { recursive: true, force: true });
  }
}

/** Milliseconds per phase, logged with the outcome: where a slow conversion spent its time. */
function phaseClock() {
  const timings: Record<string, number> = {};
  let mark = performance.now();
  return {
    timings,
    lap(phase: string) {
      const now = performance.now();
      timings[phase] = Math.round(now - mark);
      mark = now;
    },
  };
}

/**
 * Uploads in dependency order: media (and the waveform) first, then the playlists naming them,
 * the master last, so a reader never follows a link to an object that is not there yet. Returns
 * the files that get a row (every one but the waveform).
 */
async function uploadOutputs(plan: OutputPlan, ctx: PipelineContext): Promise<OutputFile[]> {
  const files = [...plan.media, ...plan.playlists, plan.master];
  const groups: UploadItem[][] = [[...plan.media, plan.waveform], plan.playlists, [plan.master]];
  const total = files.length + 1;
  let uploaded = 0;
  for (const group of groups) {
    await eachLimit(group, ctx.uploadConcurrency, async (file) => {
      await ctx.storage.upload(file, ctx.signal);
      uploaded++;
      ctx.progress.report(CONVERTED + ((UPLOADED - CONVERTED) * uploaded) / total);
    });
  }
  return files;
}

/**
 * READY, with the files' rows and the source's cover if the track has none; false when the track
 * was deleted meanwhile (what we wrote then goes too). A cover that lost to one the artist gave
 * during the conversion is removed: no row names it.
 */
async function commit(
  ctx: PipelineContext,
  trackId: string,
  completion: Omit<Completion, "cover">,
  cover: CoverUpload | null,
  written: string[],
): Promise<boolean> {
  const completed = await ctx.store.complete(trackId, { ...completion, cover: cover?.mediaPath });
  const coverKeys = cover ? [cover.key] : [];
  if (!completed) {
    await removeOrphans(ctx, trackId, [...written, ...coverKeys]);
    return false;
  }
  if (cover && completed.cover !== cover.mediaPath) await removeOrphans(ctx, trackId, coverKeys);
  return true;
}

/**
 * Objects no row names: the track was deleted while converting (its objects went before ours
 * landed), or the cover lost to the artist's.
 */
async function removeOrphans(ctx: PipelineContext, trackId: string, keys: string[]) {
  await ctx.storage
    .deleteMany(keys)
    .catch((error: unknown) =>
      log.error("orphaned outputs not removed", { trackId, error: (error as Error).message }),
    );
}

/** The upload is not needed once the outputs are recorded; failing here only leaves it behind. */
export async function removeSource(
  ctx: Pick<PipelineContext, "storage" | "store">,
  trackId: string,
  sourceKey: string,
): Promise<void> {
  try {
    await ctx.storage.delete(sourceKey);
    await ctx.store.forgetSource(trackId, sourceKey);
  } catch (error) {
    log.error("source not removed", { trackId, error: (error as Error).message });
  }
}
