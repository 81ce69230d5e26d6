import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "stress",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // Every file starts its own stack (Postgres, Redis, S3, wrangler, the transcoder) in beforeAll.
    hookTimeout: 180_000,
    // A fault test mostly waits (backoffs, lock expiry, the reconciler's passes): its files run
    // side by side even on two cores, each on its own stack.
    maxWorkers: 3,
    testTimeout: 150_000,
  },
});
