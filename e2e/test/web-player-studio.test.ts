// The web player's studio in a real browser (Debian's Chromium through playwright-core) against
// the local stack: an artist signs up, uploads a file, watches it reach READY, and sees a broken
// upload's reason; a converting track's row keeps moving when the API refuses it a live stream.
// Nothing is requested from another origin and no page error or CSP breach happens on the way.
// With SCREENSHOTS=<folder>, the studio's screens are saved there (desktop and phone width).
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { PHONE, shoot } from "./support/player-page.ts";
import { SCREENSHOTS, webPlayerSuite } from "./support/web-player-suite.ts";

const web = webPlayerSuite("studio");

describe("the web player", () => {
  test("an artist signs up, uploads a file, watches it reach READY, and sees a broken upload's reason", async () => {
    const { page, context, problems } = await web.open();
    try {
      const username = `artist_${randomBytes(3).toString("hex")}`;
      await web.signUp(page, "Artist", username);
      await page.waitForURL(`${web.stack.apiUrl}/studio`);

      await page.goto(`${web.stack.apiUrl}/studio/upload`);
      await page.getByLabel("Audio file").setInputFiles(web.mp3);
      await page.getByLabel("Title", { exact: true }).fill("Studio tone");
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      const status = page.getByRole("status").filter({ hasText: /Ready|Convert|Wait|Fail/ });
      await status.filter({ hasText: "Ready" }).waitFor({ timeout: 90_000 });
      await shoot(page, "upload-desktop");

      // A file that looks like an MP3 but does not decode: FAILED, with the reason shown.
      const broken = join(web.work, "broken.mp3");
      await writeFile(
        broken,
        Buffer.concat([Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x00"), randomBytes(64 * 1024)]),
      );
      await page.getByRole("link", { name: "Upload another" }).click();
      await page.getByLabel("Audio file").setInputFiles(broken);
      await page.getByLabel("Title", { exact: true }).fill("Broken take");
      // Uploaded private (ADR 0025): nobody else ever sees it, whatever becomes of it.
      await page.getByLabel("Visibility").selectOption("private");
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      // The file itself is at fault: converting it again would fail the same way, so no Retry.
      await page
        .getByRole("status")
        .filter({ hasText: /Failed: \S+.* This file cannot be converted/ })
        .waitFor({ timeout: 60_000 });
      expect(await page.getByRole("button", { name: "Retry" }).count()).toBe(0);

      await page.goto(`${web.stack.apiUrl}/studio`);
      await page
        .getByText(/Failed: \S+/)
        .first()
        .waitFor();
      const row = page.getByRole("listitem").filter({ hasText: "Broken take" });
      await row.getByRole("link", { name: "upload another file" }).waitFor();
      expect(await row.getByRole("button", { name: "Retry Broken take" }).count()).toBe(0);
      await row.getByText("Private", { exact: true }).waitFor();
      expect(
        await page
          .getByRole("listitem")
          .filter({ hasText: "Studio tone" })
          .getByText("Private", { exact: true })
          .count(),
      ).toBe(0);
      await page.getByRole("link", { name: "Studio tone" }).waitFor();
      await shoot(page, "studio-desktop");
      if (SCREENSHOTS) {
        await page.setViewportSize(PHONE);
        await shoot(page, "studio-phone");
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a converting track's row keeps moving when the API refuses it a live stream (the cap): it reads the track instead", async () => {
    const { page, context, problems } = await web.open();
    const holders = new AbortController();
    // The transcoder waits until the row has been seen before READY (rather than a long source
    // keeping it busy for minutes); resumed, the conversion moves the row on.
    let resume: (() => void) | undefined;
    try {
      await web.signUp(page, "Artist", `artist_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${web.stack.apiUrl}/studio`);
      // The studio has read its (empty) list before the upload: a read that came after it would
      // list the track and open a live stream of its own, taking one of the five seats below.
      await page.getByText("No tracks yet.").waitFor();
      const cookies = await context.cookies(`${web.stack.apiUrl}/api/v1/tracks`);
      const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
      const form = new FormData();
      const bytes = await readFile(web.mp3);
      form.set("file", new File([bytes], "held-tone.mp3", { type: "audio/mpeg" }));
      form.set("title", "Held tone");
      resume = web.stack.pauseTranscoder();
      const uploaded = await fetch(`${web.stack.apiUrl}/api/v1/tracks`, {
        method: "POST",
        body: form,
        headers: { cookie, origin: web.stack.apiUrl },
      });
      expect(uploaded.status).toBe(202);
      const { id } = (await uploaded.json()) as { id: string };
      // Five listeners elsewhere hold every live stream the track may have (the API's cap).
      const held = await Promise.all(
        Array.from({ length: 5 }, () =>
          fetch(`${web.stack.apiUrl}/api/v1/tracks/${id}/events`, {
            headers: { cookie },
            signal: holders.signal,
          }),
        ),
      );
      expect(held.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

      await page.goto(`${web.stack.apiUrl}/studio`);
      const row = page.getByRole("listitem").filter({ hasText: "Held tone" });
      const status = row.locator(".status");
      await expect.poll(() => status.textContent()).toMatch(/Waiting|Converting/);
      resume();
      // Refused, its stream gives way to reading the track: the row reaches Ready all the same.
      await row.locator(".status", { hasText: "Ready" }).waitFor({ timeout: 150_000 });
      expect(problems).toEqual([]);
    } finally {
      resume?.();
      holders.abort();
      await context.close();
    }
  }, 180_000);
});
