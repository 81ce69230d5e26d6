// The studio's editing in a real browser (Debian's Chromium through playwright-core) against the
// local stack: a track's title, album and cover; an album's details and track order, seen on its
// page with numbers and running time; a track made unlisted, its link and a new one; display
// names, found by search as typed; a public playlist's owner; a converting track's row that shows
// its duration and embedded cover at READY without a reload. Each touched screen passes axe's
// WCAG 2.1 A/AA rules; nothing is requested from another origin and no page error or CSP breach
// happens on the way.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchChromium } from "./support/browser-player.ts";
import { signUpThroughPage } from "./support/first-minutes-page.ts";
import { type LocalStack, startLocalStack } from "./support/local-stack.ts";
import { makeMp3Source } from "./support/media.ts";
import { hurry } from "./support/playback.ts";
import { axeViolations, openWatched } from "./support/player-page.ts";
import {
  apiAs,
  expectJson,
  makeMp3WithCover,
  makePicture,
  runningTime,
  uploadAs,
  waitReadyAs,
} from "./support/studio-editing.ts";
import { audioTime } from "./support/web-player-suite.ts";

let stack: LocalStack;
let browser: Browser;
let work: string;
/**
 * An 8-s MP3, the source of the tracks that only need to be READY (and to play through: two
 * 4-s segments).
 */
let mp3: string;
/** A 320×320 PNG: a cover to upload, and the art embedded in an MP3. */
let png: string;
/** The length of the MP3 with embedded art, shown in its row once READY. */
const SLEEVE_SECONDS = 9;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "edge-music-e2e-editing-"));
  mp3 = join(work, "tone.mp3");
  png = join(work, "cover.png");
  [stack, browser] = await Promise.all([
    startLocalStack(),
    launchChromium(),
    makeMp3Source(mp3, 8),
    makePicture(png, 320, 320),
  ]).then(([s, b]) => [s, b] as const);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** axe's findings on the page as it is now: a test expects none. */
async function expectNoAxeViolations(page: Page, screen: string) {
  expect(await axeViolations(page), screen).toEqual([]);
}

/** The src of the row's cover picture, or null while it shows the neutral tile. */
const coverSrc = (row: ReturnType<Page["getByRole"]>) =>
  row
    .locator("img.cover")
    .first()
    .getAttribute("src", { timeout: 1000 })
    .catch(() => null);

describe("the studio's editing", () => {
  test("a track's title and cover are edited in its row and seen on its page", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl, {
      bypassCSP: true,
    });
    try {
      await signUpThroughPage(page, stack.apiUrl, "Artist", "editor");
      const id = await uploadAs(context, stack.apiUrl, mp3, "Rough take");
      await waitReadyAs(context, stack.apiUrl, id);

      await page.goto(`${stack.apiUrl}/studio`);
      const row = page.getByRole("listitem").filter({ hasText: "Rough take" });
      await row.getByRole("button", { name: "Edit Rough take" }).click();
      const form = page.getByRole("form", { name: "Edit Rough take" });
      // The form opens with the focus on its first field.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("name")))
        .toBe(`title-${id}`);

      // A file that is not an image: the API refuses it, and the form says why (role=alert).
      const notImage = join(work, "not-an-image.png");
      await writeFile(notImage, "this is text, not a picture");
      await form.getByLabel("Cover").setInputFiles(notImage);
      await form.getByRole("button", { name: "Save changes" }).click();
      await form.getByRole("alert").waitFor();

      await form.getByLabel("Title").fill("Final take");
      await form.getByLabel("Cover").setInputFiles(png);
      await form.getByRole("img", { name: "New cover of Rough take (not saved yet)" }).waitFor();
      await expectNoAxeViolations(page, "studio, a track's edit form");
      await form.getByRole("button", { name: "Save changes" }).click();

      const saved = page.getByRole("listitem").filter({ hasText: "Final take" });
      await saved.getByRole("link", { name: "Final take" }).waitFor();
      await expect.poll(() => coverSrc(saved)).toMatch(/\/static\/covers\/[^/]+$/);
      // The form is gone: its Edit button has the focus back.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
        .toBe("Edit Final take");

      await saved.getByRole("link", { name: "Final take" }).click();
      await page.getByRole("heading", { level: 1, name: "Final take" }).waitFor();
      const cover = page.getByRole("img", { name: "Cover of Final take" });
      expect(await cover.getAttribute("src")).toMatch(/\/static\/covers\/[^/]+$/);
      await expect
        .poll(() => cover.evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      await expectNoAxeViolations(page, "track page");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a track made unlisted in the studio shows its link, a new link ends the old, and the link opens its page", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl, {
      bypassCSP: true,
    });
    try {
      await signUpThroughPage(page, stack.apiUrl, "Artist", "sharer");
      const id = await uploadAs(context, stack.apiUrl, mp3, "Secret demo");
      await waitReadyAs(context, stack.apiUrl, id);
      await page.goto(`${stack.apiUrl}/studio`);
      const row = page.getByRole("listitem").filter({ hasText: "Secret demo" });
      await row.getByRole("button", { name: "Edit Secret demo" }).click();
      const form = page.getByRole("form", { name: "Edit Secret demo" });
      await form.getByLabel("Visibility").selectOption("unlisted");
      await form.getByRole("button", { name: "Save changes" }).click();
      await row.getByText("Unlisted").waitFor();

      await row.getByRole("button", { name: "Edit Secret demo" }).click();
      const link = row.getByLabel("Link of Secret demo");
      await expect
        .poll(() => link.inputValue())
        .toMatch(new RegExp(`/tracks/${id}\\?key=[0-9a-f]{32}$`));
      const first = await link.inputValue();
      await expectNoAxeViolations(page, "studio, an unlisted track's link");
      await row.getByRole("button", { name: "New link" }).click();
      await expect.poll(() => link.inputValue()).not.toBe(first);
      const second = await link.inputValue();

      // The owner's Share on the track's page offers the same unlisted link, copied.
      await context.grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: stack.apiUrl,
      });
      await page.goto(`${stack.apiUrl}/tracks/${id}`);
      await page.getByRole("heading", { level: 1, name: "Secret demo" }).waitFor();
      await page.getByRole("button", { name: "Share" }).click();
      const share = page.getByRole("region", { name: "Share Secret demo" });
      await share.getByRole("button", { name: "Copy unlisted link" }).click();
      await share.getByText("Unlisted link copied.").waitFor();
      expect(await share.getByLabel(/^Unlisted link/).inputValue()).toBe(second);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(second);
      await expectNoAxeViolations(page, "track page, the owner's Share");

      // Anyone with the new link sees the track; the old link and no key are "not found".
      const visitor = await browser.newContext();
      try {
        const other = await visitor.newPage();
        const key = (url: string) => new URL(url).searchParams.get("key") ?? "";
        await other.goto(`${stack.apiUrl}/tracks/${id}?key=${key(second)}`);
        await other.getByRole("heading", { level: 1, name: "Secret demo" }).waitFor();
        // It plays, signed out, through the signed URLs its key gave (ADR 0026), and its play,
        // heard through, is reported with their signature (the track is in no list).
        const reported = other.waitForResponse(
          (r) => r.request().method() === "POST" && r.url().endsWith("/api/v1/plays"),
        );
        await other.getByRole("main").getByRole("button", { name: "Play", exact: true }).click();
        await expect.poll(() => audioTime(other), { timeout: 30_000 }).toBeGreaterThan(0.5);
        await hurry(other);
        expect((await reported).status()).toBe(202);
        // Counted by the plays queue's consumer: the track's count, read with its key.
        await expect
          .poll(
            async () => {
              const read = await other.request.get(
                `${stack.apiUrl}/api/v1/tracks/${id}?key=${key(second)}`,
              );
              return ((await read.json()) as { plays: number }).plays;
            },
            { timeout: 30_000 },
          )
          .toBe(1);
        const old = await other.request.get(
          `${stack.apiUrl}/api/v1/tracks/${id}?key=${key(first)}`,
        );
        expect(old.status()).toBe(404);
        const bare = await other.request.get(`${stack.apiUrl}/api/v1/tracks/${id}`);
        expect(bare.status()).toBe(404);
      } finally {
        await visitor.close();
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a single moves into an album; the album is described and reordered, and its page numbers and times it", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl, {
      bypassCSP: true,
    });
    try {
      await signUpThroughPage(page, stack.apiUrl, "Artist", "albumist");
      const titles = ["First light", "Second wind", "Third rail"];
      const ids: string[] = [];
      for (const title of titles) ids.push(await uploadAs(context, stack.apiUrl, mp3, title));
      const durations = await Promise.all(
        ids.map(async (id) => (await waitReadyAs(context, stack.apiUrl, id)).duration ?? 0),
      );
      const album = await expectJson<{ id: string }>(
        apiAs(context, stack.apiUrl, "/api/v1/albums", {
          method: "POST",
          json: { title: "Harbour Nights" },
        }),
        201,
      );
      // Two join the album through the API; the third, a single, through its row's form.
      for (const id of ids.slice(0, 2)) {
        await expectJson(
          apiAs(context, stack.apiUrl, `/api/v1/tracks/${id}`, {
            method: "PUT",
            json: { albumId: album.id },
          }),
        );
      }
      await page.goto(`${stack.apiUrl}/studio`);
      const single = page.getByRole("listitem").filter({ hasText: "Third rail" });
      await single.getByText("Single").waitFor();
      await single.getByRole("button", { name: "Edit Third rail" }).click();
      const form = page.getByRole("form", { name: "Edit Third rail" });
      await form.getByLabel("Album").selectOption({ label: "Harbour Nights" });
      await form.getByRole("button", { name: "Save changes" }).click();
      await single.getByText("Album: Harbour Nights").waitFor();

      // The album's details, and its order: the third track moved to the top by keyboard.
      await page.goto(`${stack.apiUrl}/studio/albums`);
      await page.getByRole("button", { name: "Edit Harbour Nights" }).click();
      const edit = page.getByRole("form", { name: "Edit Harbour Nights" });
      await edit.getByLabel("Description").fill("Three takes by the harbour.");
      await edit.getByLabel("Release date").fill("2024-05-17");
      await edit.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("status").filter({ hasText: "Album “Harbour Nights” saved." }).waitFor();

      await page.getByRole("button", { name: "Track order of Harbour Nights" }).click();
      const order = page.getByRole("list", { name: "Track order of Harbour Nights" });
      await order.getByRole("listitem").nth(2).waitFor();
      expect(await order.getByRole("listitem").allTextContents()).toEqual([
        expect.stringContaining("First light"),
        expect.stringContaining("Second wind"),
        expect.stringContaining("Third rail"),
      ]);
      await order.getByRole("button", { name: "Move Third rail up" }).focus();
      await page.keyboard.press("Enter");
      // The moved track's button keeps the focus: a second Enter moves it again.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
        .toBe("Move Third rail up");
      await page.keyboard.press("Enter");
      // At the top its Up button is disabled: the focus goes to its Down button.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
        .toBe("Move Third rail down");
      await expectNoAxeViolations(page, "studio albums, the track order");
      await page.getByRole("button", { name: "Save order" }).click();
      await page.getByRole("status").filter({ hasText: "Track order saved." }).waitFor();

      await page.getByRole("link", { name: "Harbour Nights" }).click();
      await page.getByRole("heading", { level: 1, name: "Harbour Nights" }).waitFor();
      const rows = page
        .getByRole("list", { name: "Tracks of Harbour Nights" })
        .getByRole("listitem");
      await rows.nth(2).waitFor();
      const texts = await rows.allTextContents();
      expect(texts.map((t) => t.match(/First light|Second wind|Third rail/)?.[0])).toEqual([
        "Third rail",
        "First light",
        "Second wind",
      ]);
      expect(await rows.locator(".track-number").allTextContents()).toEqual(["1", "2", "3"]);
      const total = runningTime(durations.reduce((a, b) => a + b, 0));
      await page.getByText(`3 tracks · ${total}`).waitFor();
      await page.getByText("Three takes by the harbour.").waitFor();
      await expectNoAxeViolations(page, "album page");

      // A track's page names its album.
      await page.getByRole("link", { name: "Third rail" }).click();
      await page.getByRole("heading", { level: 1, name: "Third rail" }).waitFor();
      await page.getByRole("link", { name: "Harbour Nights" }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("an artist's display name, with a space, is shown and found as typed and with a typo", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl, {
      bypassCSP: true,
    });
    try {
      const { username } = await signUpThroughPage(page, stack.apiUrl, "Artist", "lunah");
      const id = await uploadAs(context, stack.apiUrl, mp3, "Tide song");
      await page.goto(`${stack.apiUrl}/studio/profile`);
      await page.getByLabel("Display name").fill("Luna Harbor");
      await expectNoAxeViolations(page, "studio profile");
      await page.getByRole("button", { name: "Save profile" }).click();
      await page.getByRole("status").filter({ hasText: "Profile saved." }).waitFor();
      await waitReadyAs(context, stack.apiUrl, id);

      await page.getByRole("link", { name: "See your public page" }).click();
      await page.getByRole("heading", { level: 1, name: "Luna Harbor" }).waitFor();
      await page.getByText(`@${username}`, { exact: true }).waitFor();
      const tracks = page.getByRole("list", { name: "Tracks of Luna Harbor" });
      await tracks.getByRole("link", { name: "Luna Harbor" }).waitFor();
      await expectNoAxeViolations(page, "artist page");

      const box = page.getByLabel("Search tracks, artists, albums and playlists");
      for (const typed of ["Luna Harbor", "lunharbor"]) {
        await box.fill(typed);
        await page.waitForURL(`${stack.apiUrl}/search?q=${encodeURIComponent(typed)}`);
        const found = page.getByRole("list", { name: "Artists found" });
        await found.getByRole("link", { name: "Luna Harbor" }).waitFor();
        await found.getByText(`@${username}`).waitFor();
      }
      await expectNoAxeViolations(page, "search page");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a public playlist names its owner by display name only, and by nothing without one", async () => {
    const owner = await openWatched(browser, stack.apiUrl, { bypassCSP: true });
    const visitor = await openWatched(browser, stack.apiUrl, { bypassCSP: true });
    try {
      const { username, email } = await signUpThroughPage(
        owner.page,
        stack.apiUrl,
        "Listener",
        "owl",
      );
      const create = (title: string) =>
        expectJson<{ id: string }>(
          apiAs(owner.context, stack.apiUrl, "/api/v1/playlists", {
            method: "POST",
            json: { title, isPublic: true },
          }),
          201,
        );
      // Two playlists, each read by the visitor once: an anonymous answer may be cached.
      const before = await create("Before a name");
      const after = await create("After a name");
      const { page } = visitor;
      const ownerLine = async () => (await page.locator("header.profile").textContent()) ?? "";

      await page.goto(`${stack.apiUrl}/playlists/${before.id}`);
      await page.getByRole("heading", { level: 1, name: "Before a name" }).waitFor();
      expect(await ownerLine()).toContain("A listener's playlist");
      expect(await page.locator("main").textContent()).not.toContain(username);

      await owner.page.goto(`${stack.apiUrl}/account`);
      const form = owner.page.getByRole("form", { name: "Display name" });
      await form.getByLabel("Display name").fill("Night Owl Radio");
      await form.getByRole("button", { name: "Save display name" }).click();
      await owner.page.getByRole("status").filter({ hasText: "Night Owl Radio" }).waitFor();
      await expectNoAxeViolations(owner.page, "account page");

      await page.goto(`${stack.apiUrl}/playlists/${after.id}`);
      await page.getByRole("heading", { level: 1, name: "After a name" }).waitFor();
      expect(await ownerLine()).toContain("By Night Owl Radio");
      const text = (await page.locator("main").textContent()) ?? "";
      expect(text).not.toContain(username);
      expect(text).not.toContain(email.split("@")[0]);
      await expectNoAxeViolations(page, "public playlist page");
      expect([...owner.problems, ...visitor.problems]).toEqual([]);
    } finally {
      await owner.context.close();
      await visitor.context.close();
    }
  });

  test("a converting track's row shows its duration and embedded cover at READY, without a reload", async () => {
    const art = join(work, "embedded.mp3");
    await makeMp3WithCover(art, SLEEVE_SECONDS, png);
    const { page, context, problems } = await openWatched(browser, stack.apiUrl, {
      bypassCSP: true,
    });
    // The transcoder waits until the row has been seen before READY (rather than a long source
    // keeping it busy for minutes); resumed, the conversion brings the row its duration and cover.
    let resume: (() => void) | undefined;
    try {
      await signUpThroughPage(page, stack.apiUrl, "Artist", "covered");
      resume = stack.pauseTranscoder();
      const id = await uploadAs(context, stack.apiUrl, art, "Sleeve art");
      await page.goto(`${stack.apiUrl}/studio`);
      // Marks this document: a reload would lose the mark.
      await page.evaluate(() => {
        (window as unknown as { sameDocument: boolean }).sameDocument = true;
      });
      const row = page.getByRole("listitem").filter({ hasText: "Sleeve art" });
      await expect.poll(() => row.locator(".status").textContent()).toMatch(/Waiting|Converting/);
      expect(await coverSrc(row)).toBeNull();
      expect(await row.locator(".duration").count()).toBe(0);
      resume();

      await row.locator(".status", { hasText: "Ready" }).waitFor({ timeout: 150_000 });
      await row.locator(".duration", { hasText: runningTime(SLEEVE_SECONDS) }).waitFor();
      await expect.poll(() => coverSrc(row)).toMatch(/\/static\/covers\/[^/]+$/);
      expect(
        await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
      ).toBe(true);
      await expectNoAxeViolations(page, "studio tracks");

      await row.getByRole("link", { name: "Sleeve art" }).click();
      const cover = page.getByRole("img", { name: "Cover of Sleeve art" });
      await cover.waitFor();
      expect(await cover.getAttribute("src")).toMatch(/\/static\/covers\/[^/]+$/);
      // The cover the transcoder found, as the API gives it.
      const { cover: found } = await waitReadyAs(context, stack.apiUrl, id);
      expect(found).toMatch(/^\/static\/covers\//);
      expect(await cover.getAttribute("src")).toBe(`${stack.apiUrl}${found}`);
      expect(problems).toEqual([]);
    } finally {
      resume?.();
      await context.close();
    }
  }, 240_000);
});
