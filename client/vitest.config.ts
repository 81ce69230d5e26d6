import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "client",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // One process runs several files, one after another: a new process per file paid Node's start
    // and the imports anew. Files share only the module cache: each makes its own data.
    isolate: false,
    // One local stack (Postgres, Redis, S3, the Worker) per file, in beforeAll.
    hookTimeout: 180_000,
    testTimeout: 60_000,
  },
});
