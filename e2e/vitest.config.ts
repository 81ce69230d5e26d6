import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "e2e",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // The stack (Postgres, Redis, S3, the Worker, the transcoder) starts once per file, in beforeAll.
    // Bounds, not expectations: on a loaded two-core machine (five of these files at once, each
    // with its stack and a Chromium) a page or a conversion can take several times its usual
    // time, and a bound hit then is a false failure. A poll waits up to 10 s (vitest's default is
    // 1 s), so a screen that renders late is waited for, not failed.
    hookTimeout: 300_000,
    testTimeout: 300_000,
    expect: { poll: { timeout: 10_000 } },
    // A file here mostly waits on its own stack and browser (a conversion, playback, a page): five
    // run at a time, with the fault tests, after the other projects (a group of their own: vitest
    // takes one maxWorkers per group; the same here as in stress/vitest.config.ts).
    maxWorkers: 5,
    sequence: { groupOrder: 1 },
  },
});
