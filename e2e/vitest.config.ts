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
    // 1 s), so a screen that renders late is waited for, not failed; it asks every 250 ms (vitest's
    // default is 50): each ask is a round trip to the browser and a query of the page, and a file
    // waits on playback for minutes in all.
    hookTimeout: 300_000,
    testTimeout: 300_000,
    expect: { poll: { timeout: 10_000, interval: 250 } },
    // A file here mostly waits on its own stack and browser (a conversion, playback, a page): five
    // run at a time, with the fault tests, after the other projects (a group of their own: vitest
    // takes one maxWorkers per group; the same here as in stress/vitest.config.ts).
    maxWorkers: 5,
    // One process runs several files, one after another, instead of a new one per file (each
    // imported playwright-core and the stack anew). Files share nothing but the module cache: each
    // starts its own stack and browser, and the support modules keep no state of their own.
    isolate: false,
    sequence: { groupOrder: 1 },
  },
});
