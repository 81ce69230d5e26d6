import type { TestProject } from "vitest/node";
import { startInfra } from "./infra.ts";

/**
 * Starts the real infrastructure once for the whole test run: embedded Postgres (or TEST_DATABASE_URL),
 * the Neon bridge, redis-server (or TEST_REDIS_URL), and the S3-compatible store. Suites make their
 * own databases, queues and keys on it; nothing is shared between them but the servers.
 */
export default async function setup(project: TestProject) {
  const infra = await startInfra({
    ...(process.env.TEST_DATABASE_URL ? { databaseUrl: process.env.TEST_DATABASE_URL } : {}),
    ...(process.env.TEST_REDIS_URL ? { redisUrl: process.env.TEST_REDIS_URL } : {}),
    bucket: "test-media",
  });
  const { stop, ...info } = infra;
  project.provide("infra", info);
  return stop;
}
