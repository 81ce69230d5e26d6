import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { findInconsistencies } from "./consistency.ts";
import type { FaultStack } from "./fault-stack.ts";
import { until } from "./wait.ts";

/**
 * The end of every fault test: once no track is PROCESSING and the queue holds no job still to
 * run (or the deadline passes), the database and the store must agree (see findInconsistencies)
 * and no job may be left waiting, running or delayed.
 */
export async function expectConsistent(stack: FaultStack, timeoutMs = 60_000): Promise<void> {
  const pendingJobs = async () => {
    const counts = await stack.queue.getJobCounts("wait", "active", "delayed", "prioritized");
    return Object.entries(counts).filter(([, n]) => n > 0);
  };
  await until(
    "every track to leave PROCESSING and the queue to drain",
    async () => {
      const processing = await stack.db
        .select({ id: tracks.id })
        .from(tracks)
        .where(eq(tracks.processingStatus, "PROCESSING"));
      return processing.length === 0 && (await pendingJobs()).length === 0;
    },
    { timeoutMs, intervalMs: 250 },
  ).catch(() => {
    // Not settled in time: the checks below name what is still wrong.
  });
  const problems = await findInconsistencies(stack.db, stack.infra.s3);
  for (const [state, n] of await pendingJobs()) problems.push(`${n} job(s) still ${state}`);
  expect(problems, stack.logs()).toEqual([]);
}
