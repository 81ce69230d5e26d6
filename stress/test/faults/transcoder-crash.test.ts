import { readdir } from "node:fs/promises";
import { audioJobId } from "@edge-music/contracts";
import { uploadTrack } from "@edge-music/e2e/api";
import { describe, expect, it } from "vitest";
import { expectConsistent } from "../support/settled.ts";
import { faultSuite } from "../support/suite.ts";
import { ffmpegRunning, readyRow, settledJob } from "../support/tracks.ts";
import type { RunningTranscoder } from "../support/transcoder.ts";

// Long enough that ffmpeg runs for a few seconds on a busy machine: the kill lands inside it.
const suite = faultSuite("crash", 12);

/** The conversion work folders in the transcoder's TMPDIR (tsx keeps its cache there too). */
const workFolders = async (transcoder: RunningTranscoder) =>
  (await readdir(transcoder.workDir)).filter((name) => name.startsWith("transcode-"));

describe("the transcoder killed with SIGKILL while converting", () => {
  it("a new transcoder takes the stalled job over; READY with exactly its files", async () => {
    const first = await suite.stack.startTranscoder();
    const { track } = await uploadTrack(
      suite.stack.apiUrl,
      suite.session,
      suite.source,
      "killed mid-conversion",
    );
    await ffmpegRunning(first);
    await first.kill();
    expect(await first.exited).toBe(128);
    // SIGKILL reaches the whole group at once, but a busy machine may run an ffmpeg's exit only a
    // moment after its parent's: none may be left running once it had that moment.
    await expect.poll(() => first.children(), { timeout: 10_000 }).toEqual([]);
    const killed = await suite.stack.trackRow(track.id);
    expect(killed).toMatchObject({ processingStatus: "PROCESSING", processingAttempts: 1 });
    // The dead process could not clean up: its work folder is still there.
    expect(await workFolders(first)).toHaveLength(1);

    const second = await suite.stack.startTranscoder();
    const ready = await readyRow(suite.stack, track.id);
    // The killed attempt and the one that finished; BullMQ saw the job stall once.
    expect(ready.processingAttempts).toBe(2);
    const jobId = audioJobId(track.id, ready.sourceFileName ?? "");
    const job = await settledJob(suite.stack, jobId, "completed");
    expect(job?.stalledCounter).toBe(1);
    // The new transcoder cleans up after itself.
    expect(await workFolders(second)).toEqual([]);
    await second.stop();

    await expectConsistent(suite.stack);
  });
});

describe("SIGTERM to the transcoder while converting", () => {
  it("stops taking jobs, lets go of the running one in time, exits 0; nothing is lost", async () => {
    const shutdownTimeoutMs = 1_000;
    const transcoder = await suite.stack.startTranscoder({
      SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
    });
    const running = (
      await uploadTrack(suite.stack.apiUrl, suite.session, suite.source, "running at SIGTERM")
    ).track;
    const queued = (
      await uploadTrack(suite.stack.apiUrl, suite.session, suite.source, "queued at SIGTERM")
    ).track;
    await ffmpegRunning(transcoder);

    const sentAt = Date.now();
    transcoder.terminate();
    expect(await transcoder.exited).toBe(0);
    // The timeout, then at most the 2 s the interrupted job gets to hand itself back.
    expect(Date.now() - sentAt).toBeLessThan(shutdownTimeoutMs + 2_000 + 2_000);
    expect(await transcoder.children()).toEqual([]);

    // The queued job was never taken; the running one finished or was handed back to the queue
    // for another transcoder, without using up an attempt.
    expect(await suite.stack.trackRow(queued.id)).toMatchObject({
      processingStatus: "PROCESSING",
      processingAttempts: 0,
    });
    const runningRow = await suite.stack.trackRow(running.id);
    const runningJob = audioJobId(running.id, runningRow?.sourceFileName ?? "");
    const state = await suite.stack.queue.getJobState(runningJob);
    if (runningRow?.processingStatus === "READY") expect(state).toBe("completed");
    else {
      expect(state).toBe("waiting");
      expect((await suite.stack.queue.getJob(runningJob))?.attemptsMade).toBe(0);
      expect(runningRow?.processingAttempts).toBe(0);
    }

    const next = await suite.stack.startTranscoder();
    for (const track of [running, queued]) await readyRow(suite.stack, track.id);
    await next.stop();
    await expectConsistent(suite.stack);
  });
});
