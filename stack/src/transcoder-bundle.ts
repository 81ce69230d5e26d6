// The transcoder as its container image runs it: one bundled file (transcoder/build.ts), started
// with plain `node`. A test run that starts many transcoders (each end-to-end and fault file its
// own, the fault tests several) builds it once; under tsx each start costs about 2.5 CPU seconds
// more (its loader's hooks see every module the transcoder imports: the AWS SDK, BullMQ, …).
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const transcoderDir = fileURLToPath(new URL("../../transcoder", import.meta.url));

/**
 * Set by the test run's global setup to the bundle it built: startTranscoderProcess then runs it
 * instead of the sources under tsx.
 */
export const TRANSCODER_BUNDLE_ENV = "EDGE_MUSIC_TRANSCODER_BUNDLE";

/**
 * Builds the transcoder as its image does (`transcoder/build.ts`, into transcoder/dist) and keeps a
 * copy in a folder of its own, out of reach of a later build while this run uses it.
 */
export async function buildTranscoderBundle(): Promise<{ path: string; remove(): Promise<void> }> {
  await promisify(execFile)(process.execPath, ["--import", "tsx", "build.ts"], {
    cwd: transcoderDir,
  });
  const dir = await mkdtemp(join(tmpdir(), "edge-music-transcoder-"));
  const path = join(dir, "main.mjs");
  await copyFile(join(transcoderDir, "dist/main.mjs"), path);
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}
