import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./stack/src/vitest-global-setup.ts"],
    projects: [
      "contracts",
      "db",
      "e2e",
      "scripts/release",
      "stack",
      "stress",
      "transcoder",
      "worker",
    ],
    reporters: ["default"],
    // Logs of passing tests are noise (expected warnings of failure paths); failing ones keep theirs.
    silent: "passed-only",
  },
});
