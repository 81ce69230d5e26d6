import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "web",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // One process runs several files, one after another: a new process per file paid Node's start
    // and the imports anew. Files share only the module cache: each makes its own data.
    isolate: false,
    // The bundle test runs a whole Vite build.
    testTimeout: 60_000,
  },
});
