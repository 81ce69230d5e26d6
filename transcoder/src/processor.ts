import { type Job, UnrecoverableError } from "bullmq";
import { log } from "./log.ts";

/**
 * Placeholder until the conversion pipeline lands: it takes the job off the queue and fails it
 * without retries, so nothing pretends a track was converted.
 */
export async function processJob(job: Job): Promise<never> {
  log.warn("conversion is not implemented yet", { jobId: job.id });
  throw new UnrecoverableError("conversion is not implemented yet");
}
