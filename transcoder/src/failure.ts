import { pgErrorCode } from "@edge-music/db";
import { UnrecoverableError } from "bullmq";
import { DrizzleQueryError } from "drizzle-orm";

export interface FailureInput {
  /** Bad input that can never convert (BullMQ then fails the job without retrying). */
  unrecoverable: boolean;
  /** job.attemptsMade: attempts finished before this one. */
  attemptsMade: number;
  /** job.opts.attempts (BullMQ's default is 1). */
  attempts: number | undefined;
}

/**
 * Whether this failure ends the track's conversion (FAILED) or leaves it PROCESSING for BullMQ's
 * next attempt: final on bad input, and on the last attempt whatever the cause.
 */
export function isFinalFailure({ unrecoverable, attemptsMade, attempts }: FailureInput): boolean {
  return unrecoverable || attemptsMade + 1 >= Math.max(1, attempts ?? 1);
}

export function isUnrecoverable(error: unknown): boolean {
  return error instanceof UnrecoverableError;
}

const MAX_REASON = 300;

/**
 * The one-line reason stored in processingError, which the artist sees: never a stack, SQL text
 * or a storage key. Our own errors are written to be read; others are named by their origin.
 */
export function describeFailure(error: unknown): string {
  const reason = readable(error).replace(/\s+/g, " ").trim();
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason;
}

function readable(error: unknown): string {
  if (!(error instanceof Error)) return "conversion failed";
  const { name } = error;
  // AWS SDK errors carry $metadata; their name (NoSuchKey, SlowDown, …) says enough.
  if ((error as { $metadata?: unknown }).$metadata !== undefined) {
    return `temporary storage error (${name})`;
  }
  // drizzle puts the query text in its message; the SQLSTATE is what to keep.
  const code = pgErrorCode(error);
  if (error instanceof DrizzleQueryError || code !== undefined) {
    return `temporary database error${code ? ` (SQLSTATE ${code})` : ""}`;
  }
  // ffmpeg names files by their path in the work folder: only the file name means anything.
  const line = (error.message.split("\n")[0] ?? "").replace(/(?:\/[^\s/:'"]+)+\//g, "");
  return line || "conversion failed";
}
