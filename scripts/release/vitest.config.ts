import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "release",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // Each test makes git repositories and runs the real changesets CLI: seconds, not milliseconds.
    testTimeout: 60_000,
  },
});
