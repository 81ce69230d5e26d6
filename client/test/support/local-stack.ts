import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { logTail, startStackInfra, startStackWorker } from "@edge-music/stack";
import { inject } from "vitest";

export interface ClientStack {
  /** The Worker's origin. */
  apiUrl: string;
  logs(): string;
  stop(): Promise<void>;
}

/**
 * Infrastructure of its own (a migrated database copied from the run's template, Redis, the S3
 * store), then the real Worker (the run's build in Miniflare, ADR 0031) with STORAGE_DRIVER=s3, so
 * direct uploads get presigned URLs. No transcoder: uploaded tracks stay PROCESSING, which is all
 * these tests look at. A failed start stops what started.
 */
export async function startClientStack(): Promise<ClientStack> {
  const stops: Array<() => Promise<void>> = [];
  const tail = logTail(60);
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  };
  try {
    const tmp = await mkdtemp(join(tmpdir(), "edge-music-client-"));
    stops.push(() => rm(tmp, { recursive: true, force: true }));
    const infra = await startStackInfra(inject("stackBase"));
    stops.push(infra.stop);
    const worker = await startStackWorker(infra, { tmp, log: tail.add("worker") });
    stops.push(worker.stop);
    return { apiUrl: worker.url, logs: tail.text, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
