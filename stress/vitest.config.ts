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
    // After every other project (vitest requires its own group for its own maxWorkers): fault
    // timings held while the rest of the suite competes for the two cores would flake.
    sequence: { groupOrder: 1 },
    testTimeout: 150_000,
  },
});
