import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { registerArtist, type Session } from "@edge-music/e2e/api";
import { makeMp3Source } from "@edge-music/e2e/media";
import { afterAll, afterEach, beforeAll, beforeEach, onTestFailed } from "vitest";
import { type FaultStack, startFaultStack } from "./fault-stack.ts";

/** What every fault test of a file shares, filled in by its beforeAll. */
export interface FaultSuite {
  stack: FaultStack;
  /** An artist signed in to the stack's Worker. */
  session: Session;
  /** An MP3 to upload. */
  source: string;
}

/**
 * One file's stack and fixtures: a private stack, an artist and an MP3 of `sourceSeconds`, made
 * side by side before the first test; the stack's logs printed when a test fails; every
 * transcoder stopped after each test (the next starts from none); everything stopped and removed
 * at the end. Hooks a file registers after this call run before these on the way out (vitest
 * runs after-hooks in reverse), so a file can bring back what it took down before the stop.
 */
export function faultSuite(name: string, sourceSeconds: number): FaultSuite {
  const suite = {} as FaultSuite;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `stress-${name}-`));
    suite.source = join(dir, `${name}.mp3`);
    await Promise.all([
      makeMp3Source(suite.source, sourceSeconds),
      // Kept as soon as it runs, so that afterAll stops it even when the source failed.
      startFaultStack().then((stack) => {
        suite.stack = stack;
      }),
    ]);
    suite.session = await registerArtist(suite.stack.apiUrl);
  });
  beforeEach(() => onTestFailed(() => console.log(suite.stack.logs())));
  afterEach(() => suite.stack.stopTranscoders());
  afterAll(async () => {
    await suite.stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return suite;
}
