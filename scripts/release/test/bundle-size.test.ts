import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { workerWrangler } from "../config.ts";

const run = promisify(execFile);
const root = new URL("../../../", import.meta.url).pathname;
const budget = JSON.parse(
  await readFile(new URL("../bundle-budget.json", import.meta.url), "utf8"),
) as { gzipKiB: number };

/** `Total Upload: 1749.38 KiB / gzip: 456.09 KiB`, as wrangler prints it. */
function uploadSize(output: string): { rawKiB: number; gzipKiB: number } | null {
  const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
  return match ? { rawKiB: Number(match[1]), gzipKiB: Number(match[2]) } : null;
}

describe("the Worker bundle", () => {
  it("reads wrangler's size line", () => {
    expect(uploadSize("Total Upload: 1749.38 KiB / gzip: 456.09 KiB")).toEqual({
      rawKiB: 1749.38,
      gzipKiB: 456.09,
    });
    expect(uploadSize("no size here")).toBeNull();
  });

  it("stays within its committed gzip budget (the release's build gate, production)", async () => {
    const outdir = await mkdtemp(join(tmpdir(), "edge-music-bundle-"));
    try {
      const [command, ...args] = [
        ...workerWrangler(["deploy", "--dry-run"], "production"),
        "--outdir",
        outdir,
      ];
      const { stdout, stderr } = await run(command ?? "pnpm", args, {
        cwd: root,
        env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      });
      const size = uploadSize(`${stdout}\n${stderr}`);
      expect(size, `wrangler printed no size:\n${stdout}\n${stderr}`).not.toBeNull();
      console.log(`worker bundle: ${size?.rawKiB} KiB raw, ${size?.gzipKiB} KiB gzip`);
      expect(size?.gzipKiB).toBeLessThanOrEqual(budget.gzipKiB);
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
});
