import { migrate } from "@edge-music/db/migrate";
import { createDatabase, type TestDatabase } from "@edge-music/db/test-databases";
import type { TestProject } from "vitest/node";
import { startInfra } from "./infra.ts";
import { buildTranscoderBundle, TRANSCODER_BUNDLE_ENV } from "./transcoder-bundle.ts";
import { buildWorkerBundle, WORKER_BUNDLE_ENV } from "./worker-bundle.ts";
import { startWorkerHost, WORKER_HOST_ENV } from "./worker-host.ts";

/**
 * Starts the real infrastructure once for the whole test run: embedded Postgres (or TEST_DATABASE_URL),
 * the Neon bridge, redis-server (or TEST_REDIS_URL), the S3-compatible store and the stand-ins.
 * Suites make their own databases, queues and keys on it; nothing is shared between them but the
 * servers and one migrated application database, in which every suite makes its own rows.
 * DEV_DB_RTT_MS (read by startInfra) puts the database that far away behind the Neon bridge, as
 * in `./run dev`.
 */
export default async function setup(project: TestProject) {
  // The end-to-end and fault files start many transcoders and Workers (the client's files a
  // Worker too): they run bundles built once here, side by side, their Workers on one host.
  const runs = (...names: string[]) => project.vitest.projects.some((p) => names.includes(p.name));
  const workers = runs("e2e", "stress", "client");
  const [bundle, workerBundle, workerHost] = await Promise.all([
    runs("e2e", "stress") ? buildTranscoderBundle() : undefined,
    workers ? buildWorkerBundle() : undefined,
    // Its own lines (each Worker's go to the stack that runs it): none when all is well.
    workers
      ? startWorkerHost((line) => process.stderr.write(`[worker host] ${line}\n`))
      : undefined,
  ]);
  if (bundle) process.env[TRANSCODER_BUNDLE_ENV] = bundle.path;
  if (workerBundle) process.env[WORKER_BUNDLE_ENV] = workerBundle.dir;
  if (workerHost) process.env[WORKER_HOST_ENV] = workerHost.url;
  const infra = await startInfra({
    ...(process.env.TEST_DATABASE_URL ? { databaseUrl: process.env.TEST_DATABASE_URL } : {}),
    ...(process.env.TEST_REDIS_URL ? { redisUrl: process.env.TEST_REDIS_URL } : {}),
    bucket: "test-media",
    countingBridge: true,
  });
  const app = await createAppDatabase(infra.databaseUrl);
  // The client's and e2e files' stacks copy their database from this one (the fault files keep a
  // Postgres of their own: they stop and restart it).
  const template = runs("e2e", "client") ? await createAppDatabase(infra.databaseUrl) : undefined;
  // Only data crosses to the test workers: not the stop and restart functions.
  const { stop, restartable: _restartable, ...info } = infra;
  project.provide("infra", info);
  project.provide("appDatabaseUrl", app.url);
  // The same database through the pooler, for the Worker under test (as the stack's Worker).
  const pooled = new URL(app.url);
  pooled.port = new URL(infra.pooledDatabaseUrl).port;
  project.provide("appPooledDatabaseUrl", pooled.toString());
  project.provide(
    "stackBase",
    template && {
      serverUrl: infra.databaseUrl,
      template: template.name,
      s3Endpoint: infra.s3.endpoint,
    },
  );
  return async () => {
    await app.drop().catch(() => {});
    await template?.drop().catch(() => {});
    await stop();
    await workerHost?.stop();
    await bundle?.remove();
    await workerBundle?.remove();
  };
}

/** A fresh, migrated database for the application's own tests (Worker, transcoder). */
async function createAppDatabase(serverUrl: string): Promise<TestDatabase> {
  const database = await createDatabase(serverUrl, "app_test");
  await migrate(database.url);
  return database;
}
