import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { freePort } from "../src/ports.ts";
import { runOnWorkerHost, startWorkerHost } from "../src/worker-host.ts";

test("a Worker that cannot start says why, from the host's first line", async () => {
  const tmp = await mkdtemp(join(tmpdir(), "edge-music-host-"));
  const host = await startWorkerHost(() => {});
  try {
    const missing = join(tmp, "no-bundle-here");
    await expect(
      runOnWorkerHost(
        host.url,
        {
          bundleDir: missing,
          port: await freePort(),
          varsFile: join(tmp, "vars.json"),
          persistTo: join(tmp, "state"),
        },
        undefined,
      ),
    ).rejects.toThrow(`the Worker did not start: failed ENOENT`);
  } finally {
    await host.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}, 60_000);
