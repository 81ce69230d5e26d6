import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "transcoder",
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One process runs many files, one after another, instead of a new one per file: each new
    // process imported BullMQ, ioredis, pg, drizzle and the AWS SDK anew (vitest's "import" time,
    // 38 s of this project's 83 s alone; 10 s so). Files share nothing but the module cache: each
    // makes its own queue, bucket, rows and folders, and the transcoder's own process state lives
    // in src/main.ts, which tests start as a child process (shutdown.test.ts).
    isolate: false,
  },
});
