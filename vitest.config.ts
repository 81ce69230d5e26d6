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
    // Three files at a time on two cores (vitest's default here is one): most files mostly wait on
    // workerd start-up, Postgres, Redis or ffmpeg, so the cores would otherwise idle. The e2e and
    // stress projects run after these, five at a time (their own group, see their configs).
    maxWorkers: 3,
    reporters: ["default"],
    // Logs of passing tests are noise (expected warnings of failure paths); failing ones keep theirs.
    silent: "passed-only",
  },
});
