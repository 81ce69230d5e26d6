import type { Track } from "@edge-music/db";
import type { FaultStack } from "./fault-stack.ts";
import type { RunningTranscoder } from "./transcoder.ts";
import { until } from "./wait.ts";

/** Resolves once the transcoder runs ffmpeg: a conversion is in the middle of its work. */
export function ffmpegRunning(transcoder: RunningTranscoder): Promise<true> {
  return until(
    "ffmpeg to run in the transcoder",
    async () => (await transcoder.children()).includes("ffmpeg"),
    { timeoutMs: 60_000, intervalMs: 100 },
  );
}

/** The track's row once it has left PROCESSING (READY or FAILED), read from the database. */
export function finishedRow(stack: FaultStack, trackId: string, timeoutMs = 90_000) {
  return until(
    `track ${trackId} to be READY or FAILED`,
    async () => {
      const row = await stack.trackRow(trackId);
      return row !== undefined && row.processingStatus !== "PROCESSING" && row;
    },
    { timeoutMs, intervalMs: 250 },
  );
}

/** The track's row once READY; fails at once if it ends FAILED instead. */
export async function readyRow(stack: FaultStack, trackId: string, timeoutMs = 90_000) {
  const row: Track = await finishedRow(stack, trackId, timeoutMs);
  if (row.processingStatus !== "READY") {
    throw new Error(`track ${trackId} is ${row.processingStatus}: ${row.processingError}`);
  }
  return row;
}

/**
 * The job once BullMQ has recorded it `completed` or `failed`: a moment after the track's row
 * says READY or FAILED, which the transcoder writes before its processor returns or throws. A
 * timeout names the last state seen.
 */
export function settledJob(stack: FaultStack, jobId: string, state: "completed" | "failed") {
  return until(
    `job ${jobId} to be ${state}`,
    async () => {
      const now = await stack.queue.getJobState(jobId);
      if (now !== state) throw new Error(`the job is ${now}`);
      return stack.queue.getJob(jobId);
    },
    { timeoutMs: 15_000 },
  );
}
