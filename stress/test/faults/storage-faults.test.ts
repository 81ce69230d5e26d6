import { AUDIO_PROCESSING_JOB_OPTIONS, audioJobId, trackKeys } from "@edge-music/contracts";
import { uploadTrack } from "@edge-music/e2e/api";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FaultProxy, failFirst, firstOf, startFaultProxy } from "../support/fault-proxy.ts";
import { expectConsistent } from "../support/settled.ts";
import { listObjects, storageClient } from "../support/storage.ts";
import { faultSuite } from "../support/suite.ts";
import { finishedRow, readyRow, settledJob } from "../support/tracks.ts";
import { until } from "../support/wait.ts";

const suite = faultSuite("storage", 10);
let proxy: FaultProxy;

beforeAll(async () => {
  // Only the transcoder goes through the proxy; the Worker and the checks talk to the store.
  proxy = await startFaultProxy(suite.stack.infra.s3.endpoint);
});
beforeEach(async () => {
  await suite.stack.startTranscoder({ S3_ENDPOINT: proxy.url, S3_SOCKET_TIMEOUT_MS: "2000" });
});
afterAll(() => proxy?.stop());

const isSourceGet = ({ method, path }: { method: string; path: string }) =>
  method === "GET" && path.includes("/source/");

describe("object storage failing some requests, then recovering", () => {
  it("a held download and 500s: retried by the SDK, then by BullMQ with backoff; READY", async () => {
    // A download is retried by the SDK itself: the held request times out, the 500 is tried
    // again. An upload streams its file and is not (the SDK cannot replay a stream): one 500 on
    // one segment fails the attempt after other outputs have landed.
    const segment = "/hls/128/segment_00001.m4s";
    proxy.setRule(
      firstOf(
        failFirst(1, isSourceGet, "hang"),
        failFirst(1, isSourceGet, "error"),
        failFirst(1, (r) => r.method === "PUT" && r.path.endsWith(segment), "error"),
      ),
    );
    const { track } = await uploadTrack(
      suite.stack.apiUrl,
      suite.session,
      suite.source,
      "flaky storage",
    );
    const ready = await readyRow(suite.stack, track.id);

    const faults = proxy.seen.filter((r) => r.action !== "pass");
    expect(faults.map((r) => `${r.method} ${r.action}`)).toEqual([
      "GET hang",
      "GET error",
      "PUT error",
    ]);
    // The download succeeded within the first attempt (the SDK's retries above); the upload
    // failure cost one attempt: one whole download per attempt. A download the SDK gave up on
    // and sent again after 2 s without a byte (a stall on a loaded machine) is not counted.
    expect(
      proxy.seen.filter((r) => isSourceGet(r) && r.action === "pass" && r.answered),
    ).toHaveLength(2);
    expect(ready.processingAttempts).toBe(2);
    const job = await settledJob(
      suite.stack,
      audioJobId(track.id, ready.sourceFileName ?? ""),
      "completed",
    );
    expect(job?.attemptsMade).toBe(2);
    // The first attempt had published part of the outputs: the same keys were written again.
    await expectConsistent(suite.stack);
  });
});

describe("object storage that never recovers", () => {
  it("FAILED with a readable processingError after the contract's 5 attempts and backoffs", async () => {
    proxy.setRule(() => "error");
    const { track } = await uploadTrack(
      suite.stack.apiUrl,
      suite.session,
      suite.source,
      "storage down for good",
    );
    const row = await suite.stack.trackRow(track.id);
    const jobId = audioJobId(track.id, row?.sourceFileName ?? "");

    // Each retry waits in `delayed` for the contract's backoff; the test moves it on (as an
    // operator's "retry now" would) instead of sleeping through 75 s of it.
    const delays: number[] = [];
    for (let attempt = 1; attempt < AUDIO_PROCESSING_JOB_OPTIONS.attempts; attempt++) {
      const job = await until(
        `attempt ${attempt} to fail and wait for its retry`,
        async () => {
          const found = await suite.stack.queue.getJob(jobId);
          return found?.attemptsMade === attempt && (await found.isDelayed()) && found;
        },
        { timeoutMs: 30_000 },
      );
      delays.push(job.delay);
      await job.promote();
    }
    const { delay } = AUDIO_PROCESSING_JOB_OPTIONS.backoff;
    expect(delays).toEqual([delay, delay * 2, delay * 4, delay * 8]);

    const failed = await finishedRow(suite.stack, track.id);
    expect(failed).toMatchObject({
      processingStatus: "FAILED",
      processingAttempts: AUDIO_PROCESSING_JOB_OPTIONS.attempts,
      processingError: "A temporary storage error stopped the conversion (InternalError).",
    });
    await settledJob(suite.stack, jobId, "failed");
    // Its source stays for a retry by hand; nothing else was written.
    const client = storageClient(suite.stack.infra.s3);
    const objects = await listObjects(
      client,
      suite.stack.infra.s3.bucket,
      trackKeys(track.id).prefix,
    );
    client.destroy();
    expect(objects.map((o) => o.key)).toEqual([failed.sourceKey]);

    proxy.setRule(() => "pass");
    await expectConsistent(suite.stack);
  });
});
