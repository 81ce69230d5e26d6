import { AudioJobPayload } from "@edge-music/contracts";
import { type Job, UnrecoverableError, WaitingError } from "bullmq";
import {
  type AttemptDeps,
  conversionAttempt,
  HandedBackError,
  type QueuedJob,
} from "../job/attempt.ts";
import type { ConversionResult } from "../job/pipeline.ts";
import { BadInputError } from "../media/bad-input.ts";

/**
 * The BullMQ processor for conversion jobs, and the one place where an attempt's outcome becomes
 * BullMQ's (ADR 0015): bad input (BadInputError) is rethrown as an UnrecoverableError, so BullMQ
 * fails the job at once; a job handed back on shutdown (already moved to `wait`) ends with BullMQ's
 * WaitingError; any other error is rethrown as it is, for BullMQ to retry with the job's backoff.
 * It declares three parameters, so BullMQ passes it the job's abort signal, which the queue worker
 * fires once its shutdown timeout is reached.
 */
export function createProcessor(deps: AttemptDeps) {
  const runAttempt = conversionAttempt(deps);
  return async function processJob(
    job: Job,
    token?: string,
    signal?: AbortSignal,
  ): Promise<ConversionResult> {
    const parsed = AudioJobPayload.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError("invalid conversion job payload");
    try {
      return await runAttempt(parsed.data, queuedJob(job, token, signal));
    } catch (error) {
      if (error instanceof BadInputError) throw new UnrecoverableError(error.message);
      if (error instanceof HandedBackError) throw new WaitingError();
      throw error;
    }
  };
}

/** BullMQ's job as an attempt sees it. */
function queuedJob(
  job: Job,
  token: string | undefined,
  signal: AbortSignal | undefined,
): QueuedJob {
  return {
    id: job.id,
    // Read when asked, as BullMQ keeps them on the job.
    get attemptsMade() {
      return job.attemptsMade;
    },
    get attempts() {
      return job.opts.attempts;
    },
    signal,
    updateProgress: (percent) => job.updateProgress(percent),
    // BullMQ's moveToWait: back at the head of the queue, attemptsMade unchanged.
    moveToWait: () => job.moveToWait(token),
  };
}
