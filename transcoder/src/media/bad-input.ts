/**
 * A source that can never convert (empty, not audio, too long, damaged): retrying cannot help.
 * Its message is the reason the artist reads (describeFailure makes it a sentence). Media code
 * throws it; job/failure.ts classifies it permanent; only the queue's processor turns it into
 * BullMQ's UnrecoverableError (ADR 0015).
 */
export class BadInputError extends Error {
  override name = "BadInputError";
}
