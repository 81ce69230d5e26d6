import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./stack/src/vitest-global-setup.ts"],
    projects: [
      "client",
      "contracts",
      "db",
      "e2e",
      "scripts/release",
      "stack",
      "stress",
      "transcoder",
      "web",
      "worker",
    ],
    // Two files at a time (vitest's default here is one, on two cores): most files mostly wait on
    // workerd start-up, Postgres, Redis or ffmpeg, so the second core would otherwise idle.
    maxWorkers: 2,
    reporters: ["default"],
    // Logs of passing tests are noise (expected warnings of failure paths); failing ones keep theirs.
    silent: "passed-only",
  },
});
