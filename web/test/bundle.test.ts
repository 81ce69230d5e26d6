// The player's first load stays small: everything but hls.js (loaded on the first play) within
// 150 KiB gzip, and the page does not preload hls.js.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import { describe, expect, test } from "vitest";

const BUDGET_KIB = 150;
const web = fileURLToPath(new URL("..", import.meta.url));

describe("the web player's bundle", () => {
  test(`is at most ${BUDGET_KIB} KiB gzip without hls.js, which the page does not load up front`, async () => {
    const outDir = await mkdtemp(join(tmpdir(), "edge-music-web-"));
    try {
      await build({ root: web, logLevel: "silent", build: { outDir, emptyOutDir: true } });
      const files = await readdir(join(outDir, "assets"));
      const hls = files.filter((f) => f.startsWith("hls"));
      expect(hls, "hls.js is its own chunk").toHaveLength(1);
      let app = 0;
      let hlsSize = 0;
      for (const file of files) {
        const size = gzipSync(await readFile(join(outDir, "assets", file)), { level: 9 }).length;
        if (file.startsWith("hls")) hlsSize += size;
        else app += size;
      }
      const html = await readFile(join(outDir, "index.html"), "utf8");
      app += gzipSync(html, { level: 9 }).length;
      console.log(
        `web bundle: ${(app / 1024).toFixed(1)} KiB gzip; hls.js chunk ${(hlsSize / 1024).toFixed(1)} KiB gzip`,
      );
      expect(app / 1024).toBeLessThanOrEqual(BUDGET_KIB);
      expect(html).not.toContain(hls[0]);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});
