import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AUDIO_PROCESSING_QUEUE, AUDIO_PROCESSING_QUEUE_PREFIX } from "@edge-music/contracts";
import { type Database, type Track, tracks } from "@edge-music/db";
import { migrate } from "@edge-music/db/migrate";
import { createDb } from "@edge-music/db/node";
import { type Infra, logTail, startInfra, startStackWorker } from "@edge-music/stack";
import { Queue } from "bullmq";
import { eq } from "drizzle-orm";
import { type RunningTranscoder, startTranscoder } from "./transcoder.ts";

/**
 * Settings that make recovery fast enough to test (production keeps the defaults): a dead
 * transcoder's job is taken over within ~10 s, and a track whose job Redis lost is queued again
 * a few seconds after its upload instead of two minutes.
 */
export const FAST_RECOVERY: Record<string, string> = {
  LOCK_DURATION_MS: "6000",
  STALLED_INTERVAL_MS: "2000",
  RECONCILE_INTERVAL_MS: "2000",
  RECONCILE_MIN_AGE_MS: "5000",
  SHUTDOWN_TIMEOUT_MS: "5000",
};

export interface FaultStack {
  infra: Infra;
  /** The Worker's origin. */
  apiUrl: string;
  /** The stack's database, read directly (through the Neon bridge, as the transcoder does). */
  db: Database;
  /** The conversion queue, as the Worker and the transcoder use it. */
  queue: Queue;
  /** Starts one more transcoder process; `env` adds to FAST_RECOVERY and the stack's variables. */
  startTranscoder(env?: Record<string, string>): Promise<RunningTranscoder>;
  /** Stops every transcoder still running (after each test: the next starts from none). */
  stopTranscoders(): Promise<void>;
  trackRow(trackId: string): Promise<Track | undefined>;
  /** The last lines of every process's log, for failure messages. */
  logs(): string;
  stop(): Promise<void>;
}

/**
 * The whole stack private to one test file (its own Postgres, Redis, S3 store and Worker), with
 * transcoders started on demand so a test can kill, stop and replace them. On a failed start
 * whatever already runs is stopped.
 */
export async function startFaultStack(): Promise<FaultStack> {
  const stops: Array<() => Promise<void>> = [];
  const tail = logTail(200);
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  };
  try {
    const tmp = await mkdtemp(join(tmpdir(), "edge-music-stress-"));
    stops.push(() => rm(tmp, { recursive: true, force: true }));
    const infra = await startInfra({ logFor: (part) => tail.add(part) });
    stops.push(infra.stop);
    await migrate(infra.databaseUrl);
    const database = createDb(infra.databaseUrl, { wsProxy: infra.neonWsProxy });
    stops.push(() => database.close());
    const queue = new Queue(AUDIO_PROCESSING_QUEUE, {
      connection: { url: infra.redisUrl },
      prefix: AUDIO_PROCESSING_QUEUE_PREFIX,
    });
    // Reported while Redis is down on purpose; the calls themselves fail or wait.
    queue.on("error", () => {});
    stops.push(() => queue.close());
    const worker = await startStackWorker(infra, { tmp, log: tail.add("worker") });
    stops.push(worker.stop);

    let started = 0;
    const running = new Set<RunningTranscoder>();
    return {
      infra,
      apiUrl: worker.url,
      db: database.db,
      queue,
      async startTranscoder(env = {}) {
        const name = `transcoder-${++started}`;
        // Its own temporary folder: the work folders a killed transcoder leaves are found there.
        const workDir = join(tmp, name);
        await mkdir(workDir, { recursive: true });
        const transcoder = startTranscoder(infra, {
          workDir,
          env: { ...FAST_RECOVERY, ...env },
          log: tail.add(name),
        });
        running.add(transcoder);
        stops.push(() => transcoder.stop());
        await transcoder.ready;
        return transcoder;
      },
      async stopTranscoders() {
        await Promise.all([...running].map((t) => t.stop()));
        running.clear();
      },
      async trackRow(trackId) {
        const [row] = await database.db.select().from(tracks).where(eq(tracks.id, trackId));
        return row;
      },
      logs: tail.text,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
