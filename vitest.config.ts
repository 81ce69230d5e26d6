import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./stack/src/vitest-global-setup.ts"],
    projects: ["db", "stack", "transcoder", "worker"],
    reporters: ["default"],
  },
});
