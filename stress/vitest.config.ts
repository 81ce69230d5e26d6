import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "stress",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // Every file starts its own stack (Postgres, Redis, S3, the Worker, the transcoder) in beforeAll.
    hookTimeout: 180_000,
    // A fault test mostly waits (backoffs, lock expiry, the reconciler's passes) on states it polls
    // with deadlines (support/wait.ts): its files run side by side with the e2e project's, which
    // wait on their own stacks too, after the other projects (vitest takes one maxWorkers per
    // group; the same here as in e2e/vitest.config.ts).
    maxWorkers: 5,
    // One process runs several files, one after another (the same as in e2e/vitest.config.ts):
    // each file starts and stops its own stack, and shares only the module cache.
    isolate: false,
    sequence: { groupOrder: 1 },
    testTimeout: 150_000,
  },
});
