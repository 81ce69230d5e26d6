import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "e2e",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // The stack (Postgres, Redis, S3, wrangler, the transcoder) starts once per file, in beforeAll.
    hookTimeout: 180_000,
    testTimeout: 120_000,
  },
});
