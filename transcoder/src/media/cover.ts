import { stat } from "node:fs/promises";
import { coverArgs, PICTURE_MAX_PIXELS, type SourceFile } from "./ffmpeg/args.ts";
import { runTool } from "./ffmpeg/run.ts";
import type { AttachedPicture } from "./probe.ts";

/** The most the Worker serves of any image (its IMAGE_MAX_BYTES), covers included. */
export const COVER_MAX_BYTES = 5 * 1024 * 1024;

/** One picture takes well under a second; a stuck decoder must not hold the conversion up. */
const COVER_TIMEOUT_MS = 30_000;

export interface CoverInput {
  /** Opened with its sniffed format's demuxer, never by its name. */
  source: SourceFile;
  picture: AttachedPicture;
  /** Where the JPEG goes (a file in the work folder). */
  output: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export type CoverResult = { path: string; size: number } | { skipped: string };

/** Why a picture is not even decoded, judged by the size its header claims. */
export function refusePicture({ width, height }: AttachedPicture): string | undefined {
  if (width === undefined || height === undefined) return undefined;
  if (width * height <= PICTURE_MAX_PIXELS) return undefined;
  return `the picture is ${width}×${height}, over ${PICTURE_MAX_PIXELS / 1e6} megapixels`;
}

/**
 * The source's attached picture as a JPEG cover (coverArgs), or why not: too large, undecodable,
 * or a JPEG over COVER_MAX_BYTES. A cover is an extra: nothing about the picture throws, so a
 * bad one never fails the conversion. Only the job's own interruption (its signal) propagates.
 */
export async function extractCover(input: CoverInput): Promise<CoverResult> {
  const refused = refusePicture(input.picture);
  if (refused) return { skipped: refused };
  const { source, picture, output, signal } = input;
  try {
    const run = await runTool("ffmpeg", coverArgs({ source, stream: picture.stream, output }), {
      timeoutMs: Math.min(input.timeoutMs, COVER_TIMEOUT_MS),
      signal,
    });
    if (run.code !== 0) return { skipped: firstComplaint(run.stderr) || `ffmpeg exit ${run.code}` };
    // ffmpeg may succeed with nothing encoded (no frame decoded): an empty or missing file.
    const { size } = await stat(output);
    if (size === 0) return { skipped: "no frame of the picture could be decoded" };
    if (size > COVER_MAX_BYTES) return { skipped: `the JPEG is ${size} bytes, over 5 MB` };
    return { path: output, size };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { skipped: (error as Error).message };
  }
}

/**
 * ffmpeg's first error line, in the decoder's own words ("inflate returned error -3"; the lines
 * after it are consequences), without its `[png @ 0x…]` tags.
 */
function firstComplaint(stderr: string): string {
  const lines = stderr.split("\n").map((line) => line.replace(/\[[^\]]* @ 0x[0-9a-f]+\] /g, ""));
  return lines.map((line) => line.trim()).find(Boolean) ?? "";
}
