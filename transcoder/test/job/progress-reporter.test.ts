import { describe, expect, it } from "vitest";
import { progressReporter } from "../../src/job/progress-reporter.ts";

describe("progressReporter", () => {
  it("writes at most once per interval, never backwards, and settles the last write", async () => {
    let now = 0;
    const writes: number[] = [];
    const reporter = progressReporter({
      intervalMs: 2000,
      now: () => now,
      write: async (p) => {
        writes.push(p);
      },
    });
    reporter.report(5);
    reporter.report(10); // same instant: dropped
    await reporter.settle();
    now = 1999;
    reporter.report(30); // too soon
    now = 2000;
    reporter.report(40.7);
    await reporter.settle();
    now = 5000;
    reporter.report(20); // backwards: dropped
    now = 9000;
    reporter.report(150); // clamped
    await reporter.settle();
    expect(writes).toEqual([5, 40, 100]);
  });

  it("a failed write does not fail the conversion", async () => {
    const reporter = progressReporter({
      intervalMs: 0,
      write: async () => {
        throw new Error("redis down");
      },
    });
    reporter.report(50);
    await expect(reporter.settle()).resolves.toBeUndefined();
  });
});
