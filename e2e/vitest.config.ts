import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "e2e",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // The stack (Postgres, Redis, S3, wrangler, the transcoder) starts once per file, in beforeAll.
    hookTimeout: 180_000,
    testTimeout: 120_000,
    // A file here mostly waits on its own stack and browser (a conversion, playback, a page): five
    // run at a time, with the fault tests, after the other projects (a group of their own: vitest
    // takes one maxWorkers per group; the same here as in stress/vitest.config.ts).
    maxWorkers: 5,
    sequence: { groupOrder: 1 },
  },
});
