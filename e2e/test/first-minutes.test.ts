// A new person's first minutes in a real browser (Debian's Chromium through playwright-core),
// on the local stack: sign-up says "check your email" and sends the link again; a file named .mp3
// that is not audio is told what was found; recovery codes copy and download; a session ended
// from another browser signs the page out, header included; on a 375 × 812 phone the header and
// the player take at most a fifth of the screen, and long titles are not cut. Each touched screen
// passes axe's WCAG 2.1 A/AA rules.
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { registerArtist, uploadTrack, waitUntilReady } from "./support/api.ts";
import { launchChromium } from "./support/browser-player.ts";
import { mailsTo, signUpThroughPage, totpCode } from "./support/first-minutes-page.ts";
import { type LocalStack, startLocalStack } from "./support/local-stack.ts";
import { makeMp3Source } from "./support/media.ts";
import { axeViolations, openWatched, PHONE } from "./support/player-page.ts";

let stack: LocalStack;
let browser: Browser;
let work: string;
/** A READY track whose title is far longer than a phone's line. */
let long: { id: string; title: string };

/** The page's API requests from now on, each with its answer's status or "no answer yet". */
function watchApiRequests(page: Page): () => string[] {
  const seen = new Map<Request, string>();
  const path = (request: Request) => `${request.method()} ${new URL(request.url()).pathname}`;
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/")) seen.set(request, "no answer yet");
  });
  page.on("requestfinished", async (request) => {
    if (seen.has(request)) seen.set(request, `${(await request.response())?.status()}`);
  });
  page.on("requestfailed", (request) => {
    if (seen.has(request)) seen.set(request, `failed: ${request.failure()?.errorText}`);
  });
  return () => [...seen].map(([request, answer]) => `${path(request)} → ${answer}`);
}

const audioTime = (page: Page) =>
  page.evaluate(
    () => (document.getElementById("player-audio") as HTMLAudioElement | null)?.currentTime ?? 0,
  );

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "edge-music-e2e-first-"));
  const mp3 = join(work, "first-tone.mp3");
  [stack, browser] = await Promise.all([
    startLocalStack(),
    launchChromium(),
    // Its one track only needs to start playing on a phone: 8 s.
    makeMp3Source(mp3, 8),
  ]);
  const artist = await registerArtist(stack.apiUrl);
  const title = `Sunrise Over the Harbour Lights of the Old Town (Extended Morning Mix) ${randomBytes(3).toString("hex")}`;
  const { track } = await uploadTrack(stack.apiUrl, artist, mp3, title);
  await waitUntilReady(stack.apiUrl, artist, track.id, 90_000);
  long = { id: track.id, title };
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("the first five minutes", () => {
  test("sign-up says to check the email, names the address, and sends the link again", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl, {
      bypassCSP: true,
    });
    try {
      const { email } = await signUpThroughPage(page, stack.apiUrl, "Listener", "mail");
      // Signed in at once, on the home page, with the notice above it.
      const notice = page.getByRole("region", { name: "Check your email" });
      await notice.waitFor();
      expect(await notice.textContent()).toContain(email);
      await expect.poll(async () => (await mailsTo(stack.standInsUrl, email)).length).toBe(1);

      const again = notice.getByRole("button", { name: "Send it again" });
      await again.click();
      await notice.getByText(`Sent again to ${email}.`).waitFor();
      await expect
        .poll(async () => (await mailsTo(stack.standInsUrl, email)).length, { timeout: 15_000 })
        .toBe(2);
      // Resting a while: a second click cannot send a third mail at once.
      expect(await again.isDisabled()).toBe(true);
      expect(await notice.textContent()).toMatch(/You can ask again in \d+ s/);
      expect(await axeViolations(page)).toEqual([]);

      // The person goes on using the app; the notice goes when closed.
      await notice.getByRole("button", { name: "Close" }).click();
      expect(await page.getByRole("region", { name: "Check your email" }).count()).toBe(0);
      expect(problems.filter((p) => !/Content Security Policy/.test(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a file named .mp3 that is not audio is told what was found, and the hint names the same list", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl, {
      bypassCSP: true,
    });
    try {
      await signUpThroughPage(page, stack.apiUrl, "Artist", "png");
      await page.goto(`${stack.apiUrl}/studio/upload`);
      await page.getByRole("heading", { level: 1, name: "Upload a track" }).waitFor();
      expect(await page.getByText("MP3, WAV, FLAC, M4A, OGG or Opus.").count()).toBe(1);
      const png = Buffer.alloc(512);
      png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      await page
        .getByLabel("Audio file")
        .setInputFiles({ name: "holiday.mp3", mimeType: "audio/mpeg", buffer: png });
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      const alert = page.getByRole("alert").filter({ hasText: "not audio" });
      await alert.waitFor();
      expect(await alert.textContent()).toBe(
        "This file is not audio we can read: it looks like a PNG image. Upload MP3, WAV, FLAC, M4A, OGG or Opus audio.",
      );
      expect(await axeViolations(page)).toEqual([]);
      expect(problems.filter((p) => !/Content Security Policy/.test(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("recovery codes can be copied and downloaded, and say so when copying is refused", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl, {
      bypassCSP: true,
    });
    try {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: new URL(stack.apiUrl).origin,
      });
      const { username, password } = await signUpThroughPage(
        page,
        stack.apiUrl,
        "Listener",
        "codes",
      );
      await page.getByRole("link", { name: `Account: ${username}` }).click();
      const setUp = page.getByRole("form", { name: "Set up two-factor authentication" });
      await setUp.getByLabel("Current password").fill(password);
      // What the page asked the API from the click on, and what came back: once in many runs
      // the page showed neither the key nor a reason, and the failure should say where it hung.
      const asked = watchApiRequests(page);
      await setUp.getByRole("button", { name: "Set up two-factor authentication" }).click();
      // The key, or the form's reason why not: a failure then says what the page showed.
      const key = page.locator("code.break");
      const refused = setUp.getByRole("alert");
      await key
        .or(refused)
        .first()
        .waitFor()
        .catch(async (error: Error) => {
          const form = await setUp
            .evaluate((node) => node.outerHTML, undefined, { timeout: 1_000 })
            .catch(() => "(gone)");
          throw new Error(
            `no key and no reason at ${page.url()}: ${problems.join("; ")}; ` +
              `requests: ${asked().join(", ") || "none"}; the form: ${form}`,
            { cause: error },
          );
        });
      if (await refused.isVisible()) {
        throw new Error(`setting up two-factor was refused: ${await refused.textContent()}`);
      }
      const secret = (await key.textContent()) ?? "";
      const turnOn = page.getByRole("form", { name: "Turn on two-factor authentication" });
      await turnOn
        .getByLabel("Authentication code")
        .fill(await totpCode(stack.standInsUrl, secret));
      await turnOn.getByRole("button", { name: "Turn on" }).click();
      await page.getByRole("heading", { name: "Your recovery codes" }).waitFor();
      const codes = await page
        .getByRole("list", { name: "Recovery codes" })
        .locator("code")
        .allTextContents();
      expect(codes).toHaveLength(10);

      await page.getByRole("button", { name: "Copy codes" }).click();
      await page.getByText("Copied the codes.", { exact: false }).waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      for (const code of codes) expect(copied).toContain(code);

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download codes (.txt)" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe("edge-music-recovery-codes.txt");
      const saved = await readFile((await download.path()) as string, "utf8");
      expect(saved.trim().split("\n").slice(1)).toEqual(codes);
      expect(await axeViolations(page)).toEqual([]);

      // A browser that refuses the clipboard: the codes are selected for the keyboard's copy.
      await page.evaluate(() => {
        Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
      });
      await page.getByRole("button", { name: "Copy codes" }).click();
      await page.getByText("the codes are selected", { exact: false }).waitFor();
      const selected = await page.evaluate(() => window.getSelection()?.toString() ?? "");
      for (const code of codes) expect(selected).toContain(code);
      expect(problems.filter((p) => !/Content Security Policy/.test(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a session ended from another browser signs the page out, header included, when it comes back into view", async () => {
    const here = await openWatched(browser, stack.apiUrl);
    const there = await openWatched(browser, stack.apiUrl);
    try {
      const { username, email, password } = await signUpThroughPage(
        here.page,
        stack.apiUrl,
        "Listener",
        "ended",
      );
      // Elsewhere: the same account signs in, then signs every other session out.
      await there.page.goto(`${stack.apiUrl}/sign-in`);
      await there.page.getByLabel("Listener", { exact: true }).check();
      await there.page.getByLabel("Email", { exact: true }).fill(email);
      await there.page.getByLabel("Password", { exact: true }).fill(password);
      await there.page.getByRole("button", { name: "Sign in" }).click();
      await there.page.getByRole("link", { name: `Account: ${username}` }).click();
      await there.page.getByRole("button", { name: "Sign out everywhere else" }).click();
      await expect
        .poll(() => there.page.getByRole("table", { name: "Sessions" }).getByRole("row").count())
        .toBe(2);

      // Here, no request is made until the page is looked at again (past the 5-s pause).
      const header = here.page.getByRole("banner");
      expect(await header.getByRole("link", { name: `Account: ${username}` }).count()).toBe(1);
      await new Promise((r) => setTimeout(r, 5_500));
      await here.page.evaluate(() => window.dispatchEvent(new Event("focus")));
      await header.getByRole("link", { name: "Sign in" }).waitFor({ timeout: 10_000 });
      expect(await header.getByRole("link", { name: `Account: ${username}` }).count()).toBe(0);
      expect([...here.problems, ...there.problems]).toEqual([]);
    } finally {
      await here.context.close();
      await there.context.close();
    }
  });

  test("a session ended elsewhere signs the page out at its next request, header included", async () => {
    const here = await openWatched(browser, stack.apiUrl);
    try {
      const { username } = await signUpThroughPage(here.page, stack.apiUrl, "Listener", "next");
      // The page's own first reads (the feed, the likes, the saved queue) are done: the request
      // that meets the ended session is the link's, not one of those racing the sign-out.
      await here.page.waitForLoadState("networkidle");
      // The session ends on the server (as "sign out everywhere" from another device does);
      // the page keeps its cookies, which no longer work.
      const cookies = await here.context.cookies(`${stack.apiUrl}/api/v1/users/auth/logout`);
      const ended = await fetch(`${stack.apiUrl}/api/v1/users/auth/logout`, {
        method: "POST",
        headers: {
          origin: new URL(stack.apiUrl).origin,
          cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; "),
        },
      });
      expect(ended.status).toBe(204);
      // An in-app link: its request answers 401, the refresh is refused, the page signs out. On
      // a loaded machine a read of the page's own may start after "network idle" and meet the
      // ended session first: the link is gone then, signed out already, which is as good.
      const liked = here.page.getByRole("link", { name: "Liked" });
      await liked.click({ timeout: 10_000 }).catch(async (error: unknown) => {
        if ((await liked.count()) > 0) throw error;
      });
      await here.page.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
      expect(await here.page.getByRole("link", { name: `Account: ${username}` }).count()).toBe(0);
      expect(here.problems.filter((p) => !/401/.test(p))).toEqual([]);
    } finally {
      await here.context.close();
    }
  });

  test("on a 375 × 812 phone, header and player take at most 20 % with a track playing, and long titles are not cut", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl, {
      viewport: PHONE,
      bypassCSP: true,
    });
    try {
      // Signed in as a listener: the header's longest navigation.
      await signUpThroughPage(page, stack.apiUrl, "Listener", "phone");
      await page.getByRole("button", { name: "Close" }).click();
      await page.goto(`${stack.apiUrl}/tracks/${long.id}`);
      const heading = page.getByRole("heading", { level: 1, name: long.title });
      await heading.waitFor();
      await page.getByRole("main").getByRole("button", { name: "Play", exact: true }).click();
      await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThan(0.5);

      const heights = await page.evaluate(() => {
        const height = (selector: string) =>
          document.querySelector(selector)?.getBoundingClientRect().height ?? Number.NaN;
        return { header: height("header.top"), player: height("section.player") };
      });
      const share = (heights.header + heights.player) / PHONE.height;
      expect(share, JSON.stringify(heights)).toBeLessThanOrEqual(0.2);

      // Not cut: every title on the page shows whole (no element narrower than its text).
      const cut = await page.evaluate((title) => {
        const cutOff = (el: Element) =>
          el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === "hidden";
        return Array.from(document.querySelectorAll("main *"))
          .filter((el) => el.textContent?.includes(title.slice(0, 20)) && cutOff(el))
          .map((el) => el.tagName);
      }, long.title);
      expect(cut).toEqual([]);
      // A track row (the search results) wraps its title too.
      await page.goto(`${stack.apiUrl}/search?q=${encodeURIComponent(long.title.slice(0, 24))}`);
      const row = page.getByRole("link", { name: long.title }).first();
      await row.waitFor();
      const fits = await row.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
      expect(fits).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      expect(await axeViolations(page)).toEqual([]);
      expect(problems.filter((p) => !/Content Security Policy/.test(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
