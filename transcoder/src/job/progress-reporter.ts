import { log } from "../log.ts";

export interface ProgressReporter {
  /** 0–100; lower or equal values than the last one are ignored. */
  report(percent: number): void;
  /** Waits for the write in flight, so nothing lands after the caller's next write. */
  settle(): Promise<void>;
}

/**
 * Throttles progress writes (the job's progress and the track row) to one per interval: ffmpeg
 * reports twice a second, and each write is a Redis and a Postgres round trip.
 */
export function progressReporter(options: {
  intervalMs: number;
  write: (percent: number) => Promise<void>;
  now?: () => number;
}): ProgressReporter {
  const now = options.now ?? Date.now;
  let lastAt = Number.NEGATIVE_INFINITY;
  let lastValue = -1;
  let inFlight: Promise<void> | undefined;
  return {
    report(value) {
      const percent = Math.max(0, Math.min(100, Math.floor(value)));
      if (percent <= lastValue || inFlight || now() - lastAt < options.intervalMs) return;
      lastAt = now();
      lastValue = percent;
      inFlight = options
        .write(percent)
        .catch((error: unknown) =>
          log.warn("progress not recorded", { error: (error as Error).message }),
        )
        .finally(() => {
          inFlight = undefined;
        });
    },
    async settle() {
      await inFlight;
    },
  };
}
