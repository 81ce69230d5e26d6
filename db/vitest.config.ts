import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "db",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // One process runs several files, one after another: a new process per file paid Node's start
    // and the imports anew. Files share only the module cache: each makes its own data.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
