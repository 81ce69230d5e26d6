import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "client",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // One local stack (Postgres, Redis, S3, the Worker) per file, in beforeAll.
    hookTimeout: 180_000,
    testTimeout: 60_000,
  },
});
