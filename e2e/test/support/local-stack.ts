import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  logTail,
  standInOAuthVars,
  startStackInfra,
  startStackWorker,
  startTranscoderProcess,
} from "@edge-music/stack";
import { inject } from "vitest";

export interface LocalStack {
  /** The Worker's origin, e.g. http://127.0.0.1:40123. */
  apiUrl: string;
  /**
   * The stand-ins' origin: the OAuth providers (Google, Facebook) the Worker signs in with, and
   * the mail API whose inbox holds what the Worker sent.
   */
  standInsUrl: string;
  /** The last lines of the Worker's and the transcoder's logs, for failure messages. */
  logs(): string;
  /**
   * Freezes the transcoder (SIGSTOP to its process group) until the returned function is called:
   * a track uploaded meanwhile stays queued, "Waiting", for as long as a test needs to see it so,
   * without a long source that keeps ffmpeg busy for minutes. Call it before the upload.
   */
  pauseTranscoder(): () => void;
  stop(): Promise<void>;
}

/**
 * The whole stack as `./run dev` runs it, but private to one test file: its own infrastructure
 * (its own Redis, so no other suite's jobs on `audio-processing` reach this transcoder, and no
 * other transcoder takes this suite's), a migrated database of its own (a copy of the run's
 * template on the run's Postgres) and a bucket of its own on the run's S3 store, the real Worker
 * (wrangler.toml's) with STORAGE_DRIVER=s3 and sign-in through the OAuth stand-ins, and the real
 * transcoder as its own process. The Worker runs the test run's one build of it in Miniflare, on
 * the run's Worker host, or with `wranglerDev` under `wrangler dev` as `./run dev` starts it
 * (ADR 0031). On a failed start whatever already runs is
 * stopped.
 */
export async function startLocalStack({ wranglerDev = false } = {}): Promise<LocalStack> {
  const stops: Array<() => Promise<void>> = [];
  const tail = logTail(80);
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  };
  try {
    const tmp = await mkdtemp(join(tmpdir(), "edge-music-e2e-"));
    stops.push(() => rm(tmp, { recursive: true, force: true }));
    const infra = await startStackInfra(inject("stackBase"));
    stops.push(infra.stop);

    const transcoder = startTranscoderProcess(infra, {
      env: { SHUTDOWN_TIMEOUT_MS: "5000" },
      log: tail.add("transcoder"),
    });
    const signalTranscoder = (signal: NodeJS.Signals) => {
      const { pid, exitCode, signalCode } = transcoder.child;
      if (pid === undefined || exitCode !== null || signalCode !== null) return;
      try {
        process.kill(-pid, signal);
      } catch {
        // Gone meanwhile: nothing to pause or resume.
      }
    };
    // A frozen transcoder would take SIGTERM only once resumed: resumed first, it stops at once.
    stops.push(async () => {
      signalTranscoder("SIGCONT");
      await transcoder.stop(15_000);
    });

    const worker = await startStackWorker(infra, {
      tmp,
      log: tail.add("worker"),
      wranglerDev,
      vars: {
        ...standInOAuthVars(infra.standIns.url),
        // Mail goes to the stand-in's inbox (GET <standInsUrl>/mail/messages?to=…), where the
        // browser tests read their reset and verification links.
        MAIL_API_URL: `${infra.standIns.url}/mail/emails`,
        MAIL_API_KEY: "e2e-mail-key",
      },
    });
    stops.push(worker.stop);
    // The transcoder validates its configuration at start: a bad one must fail here, not as a
    // track that never converts.
    if (transcoder.child.exitCode !== null) {
      throw new Error(`the transcoder exited at start:\n${tail.text()}`);
    }
    return {
      apiUrl: worker.url,
      standInsUrl: infra.standIns.url,
      logs: tail.text,
      pauseTranscoder() {
        signalTranscoder("SIGSTOP");
        return () => signalTranscoder("SIGCONT");
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
