// The web player's studio in a real browser (Debian's Chromium through playwright-core) sends a
// file past the form upload's limit as a direct upload, whose parts pass through the API, and
// the track reaches READY through the local stack's real transcoder.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { webPlayerSuite } from "./support/web-player-suite.ts";

const web = webPlayerSuite("direct-upload");

describe("the web player", () => {
  test("a file over 95 MB goes from the studio as a direct upload whose parts pass through the API", async () => {
    // 17 s of 192 kHz 7.1 32-bit float (noise in the centre channel): ~104 MB, past the form
    // upload's 95 MB. Its size is what the test needs: in eight channels it is a quarter of a
    // stereo file's length, and its conversion (downmixed to stereo) a third of the CPU.
    const big = join(web.work, "big.wav");
    await promisify(execFile)("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "anoisesrc=d=17:r=192000:a=0.3"],
      ...["-ac", "8", "-c:a", "pcm_f32le", big],
    ]);
    expect((await stat(big)).size).toBeGreaterThan(95 * 2 ** 20);
    const { page, context, problems } = await web.open();
    const parts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT") parts.push(new URL(request.url()).pathname);
    });
    try {
      await web.signUp(page, "Artist", `big_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${web.stack.apiUrl}/studio`);
      await page.getByRole("link", { name: "Upload", exact: true }).first().click();
      await page.getByLabel("Audio file").setInputFiles(big);
      await page.getByLabel("Title", { exact: true }).fill("Long take");
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      await page
        .getByRole("status")
        .filter({ hasText: /Ready|Convert|Wait/ })
        .waitFor({ timeout: 180_000 });
      expect(parts.length).toBeGreaterThan(10);
      for (const path of parts)
        expect(path).toMatch(/^\/api\/v1\/uploads\/[0-9a-f-]{36}\/parts\/\d+$/);
      await page.getByRole("status").filter({ hasText: "Ready" }).waitFor({ timeout: 180_000 });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    // ~104 MB through wrangler, then a conversion, beside four other files' stacks: bounds, not
    // expectations.
  }, 480_000);
});
