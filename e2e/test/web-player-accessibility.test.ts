// The web player's main screens, signed out, as a listener and as an artist, checked in a real
// browser (Debian's Chromium through playwright-core) with axe's WCAG 2.1 A/AA rules and at a
// 375-px width.
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { describe, expect, test } from "vitest";
import { DESKTOP, PHONE } from "./support/player-page.ts";
import { webPlayerSuite } from "./support/web-player-suite.ts";

// The seeded tracks are only shown, never played: 4 s each.
const web = webPlayerSuite("accessibility", { seed: true, seconds: 4 });

describe("the web player", () => {
  test("every main screen passes axe's WCAG 2.1 A/AA rules and fits a 375-px screen", async () => {
    // axe-core is injected as a script of its own, which the pages' CSP would refuse: this
    // context alone bypasses it (the other tests keep it, and fail on any breach).
    const { page, context, problems } = await web.open(PHONE, { bypassCSP: true });
    const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
    const findings: string[] = [];
    const check = async (path: string, heading: string | RegExp) => {
      await page.goto(`${web.stack.apiUrl}${path}`);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      await page.waitForLoadState("networkidle");
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        await page.addScriptTag({ path: axeSource });
        const violations = await page.evaluate(async () => {
          const axe = (
            window as unknown as {
              axe: {
                run(
                  ...args: unknown[]
                ): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
              };
            }
          ).axe;
          const result = await axe.run(document, {
            runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
          });
          return result.violations.map(
            (v) => `${v.id} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
          );
        });
        for (const v of violations) findings.push(`${path} (${viewport.width} px): ${v}`);
      }
      await page.setViewportSize(PHONE);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      if (overflow > 0) findings.push(`${path}: ${overflow} px wider than a 375-px screen`);
    };
    try {
      await check("/", "Listen now");
      await check(`/search?q=${encodeURIComponent(web.seeded.title)}`, "Search");
      await check(`/artists/${web.seeded.artistId}`, web.seeded.artist);
      await check(`/tracks/${web.seeded.trackId}`, web.seeded.title);
      await check("/sign-in", /Sign in/);
      await check("/sign-up", /Create an account/);
      await check("/forgot-password", /password/i);
      await check("/shortcuts", "Keyboard shortcuts");

      await web.signUp(page, "Listener", `a11y_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${web.stack.apiUrl}/`);
      await check("/library", "Your library");
      await page.getByLabel("Playlist title").fill("Checked");
      await page.getByRole("button", { name: "Create playlist" }).click();
      await page.waitForURL(/\/playlists\/[0-9a-f-]{36}$/);
      await check(new URL(page.url()).pathname, "Checked");
      await check("/following", "Following");
      await check("/liked", "Liked");
      await check("/history", "History");
      await check("/account", "Your account");
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.waitForURL(`${web.stack.apiUrl}/`);

      await web.signUp(page, "Artist", `a11y_artist_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${web.stack.apiUrl}/studio`);
      await check("/studio", "Your tracks");
      await check("/studio/upload", "Upload a track");
      await check("/studio/albums", "Your albums");
      await check("/studio/profile", "Your profile");
      expect(findings).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
