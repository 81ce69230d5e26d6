import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "web",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // The bundle test runs a whole Vite build.
    testTimeout: 60_000,
  },
});
