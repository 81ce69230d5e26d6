import { AUDIO_PROCESSING_QUEUE } from "@edge-music/contracts";
import { Queue } from "bullmq";
import { afterEach, describe, expect, inject, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { type QueueWorker, startQueueWorker } from "../../src/queue/worker.ts";
import { uniquePrefix } from "../support/harness.ts";

const infra = inject("infra");
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * A job's result once it has completed, read from the queue itself. (BullMQ's waitUntilFinished
 * listens for the `completed` event, which a QueueEvents reader that has not yet issued its first
 * read misses when the job is that quick: under a loaded suite it then waited out its timeout.)
 */
async function resultOf(queue: Queue, id: string | undefined, ms = 30_000): Promise<unknown> {
  const deadline = Date.now() + ms;
  if (id === undefined) throw new Error("the job has no id");
  for (;;) {
    // The state first, then the job: a job read before its state turns `completed` carries no
    // return value yet (that order once answered null for a job that had completed meanwhile).
    const state = await queue.getJobState(id);
    if (state === "completed") return (await queue.getJob(id))?.returnvalue;
    if (state === "failed")
      throw new Error(`job ${id} failed: ${(await queue.getJob(id))?.failedReason}`);
    if (Date.now() > deadline) throw new Error(`job ${id} still ${state} after ${ms} ms`);
    await sleep(50);
  }
}

/** The contract's queue under a prefix of this test's own; start the queue worker with `options`. */
function setup(overrides: Record<string, string> = {}) {
  const config = loadConfig({
    REDIS_URL: infra.redisUrl,
    DATABASE_URL: infra.databaseUrl,
    ...overrides,
  });
  const connection = { url: infra.redisUrl };
  const prefix = uniquePrefix();
  const queue = new Queue(AUDIO_PROCESSING_QUEUE, { connection, prefix });
  cleanups.push(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });
  return { config, queue, options: { prefix } };
}

describe("the queue worker", () => {
  it("takes jobs from its queue and reports their result", async () => {
    const { config, queue, options } = setup();
    const seen: unknown[] = [];
    const queueWorker: QueueWorker = startQueueWorker(
      config,
      async (job) => {
        seen.push(job.data);
        return { ok: true };
      },
      options,
    );
    cleanups.push(() => queueWorker.close());
    const job = await queue.add("convert", { trackId: "t1" });
    expect(await resultOf(queue, job.id)).toEqual({ ok: true });
    expect(seen).toEqual([{ trackId: "t1" }]);
  });

  it("on close lets the running job finish, then stops taking jobs", async () => {
    const { config, queue, options } = setup();
    const running = deferred();
    const gate = deferred();
    const queueWorker = startQueueWorker(
      config,
      async () => {
        running.resolve();
        await gate.promise;
        return "done";
      },
      options,
    );
    const job = await queue.add("convert", { n: 1 });
    await running.promise;
    let closed = false;
    const closing = queueWorker.close().then(() => {
      closed = true;
    });
    await sleep(300);
    expect(closed).toBe(false);
    gate.resolve();
    await closing;
    expect(await resultOf(queue, job.id)).toBe("done");
    await queue.add("convert", { n: 2 });
    await sleep(300);
    expect(await queue.getWaitingCount()).toBe(1);
  });

  it("on close gives up on a job that outlives the shutdown timeout", async () => {
    const { config, queue, options } = setup({ SHUTDOWN_TIMEOUT_MS: "1000" });
    const running = deferred();
    const queueWorker = startQueueWorker(
      config,
      async () => {
        running.resolve();
        await new Promise(() => {});
      },
      options,
    );
    await queue.add("convert", { n: 1 });
    await running.promise;
    const started = Date.now();
    await queueWorker.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("after the shutdown timeout, interrupts running jobs through their abort signal", async () => {
    const { config, queue, options } = setup({ SHUTDOWN_TIMEOUT_MS: "1000" });
    const running = deferred();
    let abortedAfter: number | undefined;
    let started = 0;
    // Three parameters: BullMQ hands such processors an abort signal.
    const queueWorker = startQueueWorker(
      config,
      async (_job, _token, signal) => {
        running.resolve();
        await new Promise((_, reject) =>
          signal?.addEventListener("abort", () => {
            abortedAfter = Date.now() - started;
            reject(new Error(`interrupted (${signal.reason})`));
          }),
        );
      },
      options,
    );
    const job = await queue.add("convert", { n: 1 }, { attempts: 3, backoff: 60_000 });
    await running.promise;
    started = Date.now();
    await queueWorker.close();
    const took = Date.now() - started;
    expect(abortedAfter).toBeGreaterThanOrEqual(1000);
    expect(took).toBeLessThan(3000);
    // The attempt failed like any other and waits for its retry; nothing is lost.
    expect(await queue.getJobState(job.id ?? "")).toBe("delayed");
    const after = await queue.getJob(job.id ?? "");
    expect(after?.attemptsMade).toBe(1);
    expect(after?.failedReason).toBe("interrupted (the transcoder is shutting down)");
  });

  it("hands BullMQ its lock and stalled-check settings (BullMQ's defaults unless set)", async () => {
    const defaults = setup().config;
    expect(defaults).toMatchObject({ LOCK_DURATION_MS: 30_000, STALLED_INTERVAL_MS: 30_000 });
    const { config, options } = setup({ LOCK_DURATION_MS: "4000", STALLED_INTERVAL_MS: "1500" });
    const queueWorker = startQueueWorker(config, async () => ({}), options);
    cleanups.push(() => queueWorker.close());
    expect(queueWorker.worker.opts).toMatchObject({ lockDuration: 4000, stalledInterval: 1500 });
  });
});
