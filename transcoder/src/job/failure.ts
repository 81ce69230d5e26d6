import { pgErrorCode } from "@edge-music/db";
import { DrizzleQueryError } from "drizzle-orm";
import { BadInputError } from "../media/bad-input.ts";
import { ProcessFailedError, ProcessInterruptedError } from "../media/ffmpeg/run.ts";

export interface FailureInput {
  /** Bad input that can never convert (the job is then failed without retrying). */
  permanent: boolean;
  /** job.attemptsMade: attempts finished before this one. */
  attemptsMade: number;
  /** job.opts.attempts (BullMQ's default is 1). */
  attempts: number | undefined;
}

/**
 * Whether this failure ends the track's conversion (FAILED) or leaves it PROCESSING for the queue's
 * next attempt: final on bad input, and on the last attempt whatever the cause.
 */
export function isFinalFailure({ permanent, attemptsMade, attempts }: FailureInput): boolean {
  return permanent || attemptsMade + 1 >= Math.max(1, attempts ?? 1);
}

export function isBadInput(error: unknown): boolean {
  return error instanceof BadInputError;
}

/**
 * The abort reason the queue worker gives running jobs when it shuts down: the processor hands such a
 * job back to the queue instead of failing it, so the shutdown costs it no attempt.
 */
export const SHUTDOWN_REASON = "the transcoder is shutting down";

/** The job's signal fired because this transcoder is stopping (not a fault of the job). */
export function isShutdown(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && signal.reason === SHUTDOWN_REASON;
}

export interface Classified {
  /** True when retrying cannot help: the input is bad. */
  permanent: boolean;
  /** The one-line reason for processingError (see describeFailure). */
  reason: string;
}

/**
 * Bad input or a transient fault. Our own BadInputErrors (sniffing, probe, output checks) and an
 * ffmpeg that exits non-zero on its own are bad input; everything else (storage, database,
 * Redis, a timeout, a killed process, a full disk) may pass and is retried with backoff.
 */
export function classifyFailure(error: unknown): Classified {
  if (error instanceof ProcessFailedError && environmentFault(error) === undefined) {
    return { permanent: true, reason: undecodable(error) };
  }
  return { permanent: isBadInput(error), reason: describeFailure(error) };
}

/** ffmpeg's exit code after SIGTERM or SIGINT (it stops and writes what it has). */
const FFMPEG_SIGNALLED = 255;
/** ffmpeg's exit code when more than -max_error_rate (2/3) of the decoded frames failed. */
const FFMPEG_DECODE_ERRORS = 69;
/**
 * Operating-system errors ffmpeg prints (strerror texts): the machine's fault, not the file's.
 * ffmpeg has no other channel than its stderr for them.
 */
const OS_FAULT =
  /No space left on device|Cannot allocate memory|Too many open files|Resource temporarily unavailable|Input\/output error|Disk quota exceeded/;

/**
 * Why a failed ffmpeg run is not the file's fault, if it is not: killed by a signal (OOM killer,
 * an operator: exit code null, or 255 after SIGTERM), or an operating-system error.
 */
function environmentFault(error: ProcessFailedError): string | undefined {
  if (error.code === null || error.code === FFMPEG_SIGNALLED) {
    return "the conversion was interrupted (ffmpeg was stopped by a signal)";
  }
  const os = OS_FAULT.exec(error.stderr)?.[0];
  return os && `the conversion server had a temporary fault (${os})`;
}

function undecodable(error: ProcessFailedError): string {
  const codec = /Decoder \(codec (\w+)\) not found/.exec(error.stderr)?.[1];
  const detail =
    error.code === FFMPEG_DECODE_ERRORS
      ? "most of its audio frames are damaged"
      : codec === "none"
        ? "its audio format is not supported"
        : codec
          ? `its audio format (${codec}) is not supported`
          : firstLine(error.message).replace(/^ffmpeg failed \(exit [^)]*\):\s*/, "") ||
            "ffmpeg stopped with an error";
  return sentence(`The file could not be decoded as audio: ${detail}`);
}

const MAX_REASON = 300;

/**
 * The reason stored in processingError, which the artist sees: one sentence, never a stack, SQL
 * text or a storage key. Our own errors are written to be read; others are named by their origin.
 */
export function describeFailure(error: unknown): string {
  return sentence(readable(error));
}

/** One line, a capital first letter, a full stop, at most MAX_REASON characters. */
function sentence(text: string): string {
  const line = text.replace(/\s+/g, " ").trim() || "the conversion failed";
  // A tool's name keeps its spelling.
  const capitalised = /^ff(mpeg|probe)\b/.test(line)
    ? line
    : line.charAt(0).toUpperCase() + line.slice(1);
  const ended = /[.!?…]$/.test(capitalised) ? capitalised : `${capitalised}.`;
  return ended.length > MAX_REASON ? `${ended.slice(0, MAX_REASON - 1)}…` : ended;
}

function readable(error: unknown): string {
  if (!(error instanceof Error)) return "the conversion failed";
  const { name } = error;
  // AWS SDK errors carry $metadata; their name (NoSuchKey, SlowDown, …) says enough.
  if ((error as { $metadata?: unknown }).$metadata !== undefined) {
    return `a temporary storage error stopped the conversion (${name})`;
  }
  // drizzle puts the query text in its message; the SQLSTATE is what to keep.
  const code = pgErrorCode(error);
  if (error instanceof DrizzleQueryError || code !== undefined) {
    return `a temporary database error stopped the conversion${code ? ` (SQLSTATE ${code})` : ""}`;
  }
  // Node's system errors (ECONNRESET under "socket hang up", ENOSPC, EMFILE…): the code says it.
  const system = (error as { code?: unknown }).code;
  if (typeof system === "string" && /^E[A-Z]+$/.test(system)) {
    return `the conversion server had a temporary fault (${system})`;
  }
  if (error instanceof ProcessInterruptedError) {
    return `the conversion was interrupted (${firstLine(error.message)})`;
  }
  const fault = error instanceof ProcessFailedError ? environmentFault(error) : undefined;
  if (fault) return fault;
  return firstLine(error.message);
}

// ffmpeg names files by their path in the work folder: only the file name means anything.
const firstLine = (message: string) =>
  (message.split("\n")[0] ?? "").replace(/(?:\/[^\s/:'"]+)+\//g, "");
