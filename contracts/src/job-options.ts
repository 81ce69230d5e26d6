// The conversion job's options, apart from the rest of the contract: no imports at all, so that
// the web player can show "attempt n of 5" from the same number without bundling zod
// (`@edge-music/contracts/job-options`).

/** Spec: 5 attempts, exponential backoff from 5 s; completed jobs kept 1 h (≤ 1000), failed 7 days (≤ 5000). */
export const AUDIO_PROCESSING_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: "exponential", delay: 5_000 },
  removeOnComplete: { age: 3_600, count: 1_000 },
  removeOnFail: { age: 604_800, count: 5_000 },
} as const;
