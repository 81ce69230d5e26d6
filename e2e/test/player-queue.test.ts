// The web player's queue in a real browser (Debian's Chromium through playwright-core) against the
// local stack: shuffle and repeat, moving (buttons and drag), removing and clearing entries in the
// queue panel; "+" that queues without playing; a row's play button that pauses; the queue and
// the position kept across a reload (and corrupt storage that breaks nothing); a row's menu that
// adds a track to a playlist and says when it is already there; a heart per track and the liked
// tracks that play; a visitor's Like and Follow by way of the sign-in and back; a signed-in
// listener's queue that follows them to another browser. axe finds nothing on the way.
// With SCREENSHOTS=<folder>, the queue panel and the menu are saved there (phone and desktop).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchChromium } from "./support/browser-player.ts";
import { type LocalStack, startLocalStack } from "./support/local-stack.ts";
import { makeMp3Source } from "./support/media.ts";
import { hurry, playReported } from "./support/playback.ts";
import {
  audioState,
  axeViolations,
  DESKTOP,
  openWatched,
  PHONE,
  readyTracks,
  shoot,
  signInListener,
  signUpListener,
} from "./support/player-page.ts";

/** Each seeded track lasts this long: a repeat is reached by seeking near the end. */
const TRACK_SECONDS = 20;

let stack: LocalStack;
let browser: Browser;
let work: string;
let seeded: { artistId: string; artist: string; tracks: { id: string; title: string }[] };
/** The seeded artist's display name (its username is e2e_…). */
let shownAs: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "edge-music-e2e-queue-"));
  const mp3 = join(work, "queue-tone.mp3");
  [stack, browser] = await Promise.all([
    startLocalStack(),
    launchChromium(),
    makeMp3Source(mp3, TRACK_SECONDS),
  ]);
  const tag = crypto.randomUUID().slice(0, 6);
  shownAs = `Grove Ensemble ${tag}`;
  seeded = await readyTracks(
    stack.apiUrl,
    mp3,
    ["Alder", "Birch", "Cedar", "Dogwood"].map((tree) => `${tree} ${tag}`),
    shownAs,
  );
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

const nowPlaying = (page: Page) => page.getByTestId("now-playing").textContent();
const queueList = (page: Page) => page.getByRole("list", { name: "Tracks in the queue" });
const queueTitles = (page: Page) =>
  queueList(page).locator("li .queue-entry button").allTextContents();
const artistRows = (page: Page) => page.getByRole("list", { name: `Tracks of ${shownAs}` });
const rowTitles = (page: Page) =>
  artistRows(page).locator("li .track-text a:first-child").allTextContents();
/** The notice the player says (and shows) last. */
const notice = (page: Page, text: string | RegExp) =>
  page.getByRole("status").filter({ hasText: text }).waitFor();

async function openArtist(page: Page): Promise<void> {
  await page.goto(`${stack.apiUrl}/artists/${seeded.artistId}`);
  await artistRows(page)
    .locator("li")
    .nth(seeded.tracks.length - 1)
    .waitFor();
}

/** Plays the artist's tracks from the first, and waits until the audio runs. */
async function playAll(page: Page): Promise<string[]> {
  await openArtist(page);
  const titles = await rowTitles(page);
  await page.getByRole("button", { name: "Play all" }).click();
  await expect
    .poll(async () => (await audioState(page)).time, { timeout: 30_000 })
    .toBeGreaterThan(0.3);
  return titles;
}

async function seekTo(page: Page, seconds: number): Promise<void> {
  await page.getByRole("slider", { name: "Seek" }).fill(String(seconds));
}

describe("the player's queue", () => {
  test("shuffle keeps the track playing first and un-shuffles to the first order; entries move by button and by drag; clear keeps what plays", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl);
    try {
      const titles = await playAll(page);
      const [first = ""] = titles;
      await page.getByRole("button", { name: `Queue (${titles.length})` }).click();
      await expect.poll(() => queueTitles(page)).toEqual(titles);

      const shuffle = page.getByRole("button", { name: "Shuffle" });
      await shuffle.click();
      expect(await shuffle.getAttribute("aria-pressed")).toBe("true");
      const mixed = await queueTitles(page);
      expect(mixed[0]).toBe(first);
      expect([...mixed].sort()).toEqual([...titles].sort());
      expect(await nowPlaying(page)).toBe(first);
      await shuffle.click();
      expect(await shuffle.getAttribute("aria-pressed")).toBe("false");
      await expect.poll(() => queueTitles(page)).toEqual(titles);

      // By keyboard: the second entry up; the focus stays with it (its "up" is now disabled).
      const second = titles[1] ?? "";
      await page.getByRole("button", { name: `Move ${second} up` }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => queueTitles(page)).toEqual([second, first, ...titles.slice(2)]);
      await notice(page, `Moved ${second} to position 1 of ${titles.length}.`);
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
        `Move ${second} down`,
      );
      // The playing entry moved with the rest: it is still the one playing.
      expect(await queueList(page).locator('li[aria-current="true"]').textContent()).toContain(
        first,
      );

      // By mouse: the last entry dragged onto the first.
      const last = titles.at(-1) ?? "";
      const rows = queueList(page).locator("li");
      await rows.last().dragTo(rows.first());
      await expect
        .poll(() => queueTitles(page))
        .toEqual([last, second, first, ...titles.slice(2, -1)]);

      await page.getByRole("button", { name: "Clear queue" }).click();
      await expect.poll(() => queueTitles(page)).toEqual([first]);
      await page.getByRole("button", { name: "Queue (1)" }).waitFor();
      expect(await nowPlaying(page)).toBe(first);
      expect((await audioState(page)).paused).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("the player names an artist by the display name: the rows, the bar, the queue, the lock screen", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl);
    try {
      const [track] = seeded.tracks;
      await page.goto(`${stack.apiUrl}/search?q=${encodeURIComponent(track?.title ?? "")}`);
      const found = page.getByRole("list", { name: "Tracks found" });
      await found.getByRole("link", { name: shownAs }).first().waitFor({ timeout: 15_000 });
      await found.getByRole("button", { name: `Play ${track?.title}` }).click();
      await expect.poll(() => nowPlaying(page)).toBe(track?.title);
      const bar = page.getByRole("region", { name: "Player" });
      await bar.getByRole("link", { name: shownAs }).waitFor();
      await expect
        .poll(() => page.evaluate(() => navigator.mediaSession.metadata?.artist))
        .toBe(shownAs);
      await page.getByRole("button", { name: "Queue (1)" }).click();
      expect(await queueList(page).textContent()).toContain(shownAs);
      expect(await queueList(page).textContent()).not.toContain(seeded.artist);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("repeat one plays the track again when it ends; repeat all goes from the last to the first", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl);
    try {
      const titles = await playAll(page);
      const [first = ""] = titles;
      const repeat = page.getByRole("button", { name: /^Repeat/ });
      expect(await repeat.getAttribute("aria-label")).toBe("Repeat off");
      await repeat.click();
      expect(await repeat.getAttribute("aria-label")).toBe("Repeat all");
      await repeat.click();
      expect(await repeat.getAttribute("aria-label")).toBe("Repeat one");

      await seekTo(page, TRACK_SECONDS - 1.5);
      await expect
        .poll(async () => (await audioState(page)).time)
        .toBeGreaterThan(TRACK_SECONDS - 2);
      // Round again: the time falls back to the start, and the same track plays on.
      await expect
        .poll(async () => (await audioState(page)).time, { timeout: 20_000 })
        .toBeLessThan(5);
      await expect
        .poll(async () => (await audioState(page)).time, { timeout: 20_000 })
        .toBeGreaterThan(0.3);
      expect(await nowPlaying(page)).toBe(first);

      // Repeat all, from the last entry: after its end, the first.
      await repeat.click();
      await repeat.click();
      expect(await repeat.getAttribute("aria-label")).toBe("Repeat all");
      await page.getByRole("button", { name: `Queue (${titles.length})` }).click();
      await queueList(page)
        .getByRole("button", { name: titles.at(-1), exact: true })
        .click();
      await expect.poll(() => nowPlaying(page)).toBe(titles.at(-1));
      await expect
        .poll(async () => (await audioState(page)).time, { timeout: 30_000 })
        .toBeGreaterThan(0.3);
      await seekTo(page, TRACK_SECONDS - 1.5);
      await expect.poll(() => nowPlaying(page), { timeout: 20_000 }).toBe(first);
      await expect
        .poll(async () => (await audioState(page)).time, { timeout: 30_000 })
        .toBeGreaterThan(0.3);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('"+" queues a track without playing it and says so; a row\'s play button pauses and resumes its track', async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl);
    try {
      await openArtist(page);
      const [a = "", b = ""] = await rowTitles(page);
      await page.getByRole("button", { name: `Add ${a} to the queue` }).click();
      await notice(page, `Added ${a} to the queue.`);
      await page.getByRole("button", { name: `Add ${b} to the queue` }).click();
      await notice(page, `Added ${b} to the queue.`);
      await page.getByRole("button", { name: "Queue (2)" }).waitFor();
      // Polite news, no alert: the page has none (an empty alert region counts as one).
      expect(await page.getByRole("alert").count()).toBe(0);
      // Nothing plays: no stream was even loaded.
      await page.waitForTimeout(500);
      expect(await nowPlaying(page)).toBe("Nothing playing");
      expect((await audioState(page)).paused).toBe(true);

      await page.getByRole("button", { name: `Play ${b}` }).click();
      await expect
        .poll(async () => (await audioState(page)).time, { timeout: 30_000 })
        .toBeGreaterThan(0.5);
      const pause = page.getByRole("button", { name: `Pause ${b}` });
      await pause.click();
      await expect.poll(async () => (await audioState(page)).paused).toBe(true);
      const stopped = (await audioState(page)).time;
      await page.getByRole("button", { name: `Play ${b}` }).click();
      await expect.poll(async () => (await audioState(page)).paused).toBe(false);
      await expect.poll(async () => (await audioState(page)).time).toBeGreaterThan(stopped + 0.3);
      // It went on where it was, in the same track.
      expect(stopped).toBeGreaterThan(0.5);
      expect(await nowPlaying(page)).toBe(b);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("the queue, the track and its position, and repeat come back paused after a reload", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl);
    try {
      const titles = await playAll(page);
      await page.getByRole("button", { name: "Next track" }).click();
      const second = titles[1] ?? "";
      await expect.poll(() => nowPlaying(page)).toBe(second);
      await expect
        .poll(async () => (await audioState(page)).time, { timeout: 30_000 })
        .toBeGreaterThan(0.3);
      await page.getByRole("button", { name: /^Repeat/ }).click();
      await seekTo(page, 12);
      await page.getByRole("button", { name: "Pause", exact: true }).click();
      await expect.poll(async () => (await audioState(page)).paused).toBe(true);

      await page.reload();
      await expect.poll(() => nowPlaying(page)).toBe(second);
      await page.getByRole("button", { name: `Queue (${titles.length})` }).waitFor();
      await page.getByRole("button", { name: "Repeat all" }).waitFor();
      const seek = page.getByRole("slider", { name: "Seek" });
      expect(Number(await seek.inputValue())).toBeGreaterThanOrEqual(11);
      await page.waitForTimeout(500);
      expect((await audioState(page)).paused).toBe(true);
      // Play goes on from there.
      await page.getByRole("button", { name: "Play", exact: true }).click();
      await expect
        .poll(async () => (await audioState(page)).time, { timeout: 30_000 })
        .toBeGreaterThan(12);
      expect(await nowPlaying(page)).toBe(second);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("anything in the saved queue's storage: the page shows, with what can be trusted of it", async () => {
    // A new browser where nothing plays: leaving a page saves nothing over the values set here.
    const { page, context, problems } = await openWatched(browser, stack.apiUrl);
    try {
      await page.goto(`${stack.apiUrl}/shortcuts`);
      for (const value of ["{broken", JSON.stringify({ v: 1, items: 7 }), "null", "[]"]) {
        await page.evaluate((v) => localStorage.setItem("edge-music.queue", v), value);
        await page.reload();
        await page.getByRole("heading", { level: 1, name: "Keyboard shortcuts" }).waitFor();
        await page.getByRole("button", { name: "Queue (0)" }).waitFor();
        expect(await nowPlaying(page)).toBe("Nothing playing");
      }
      const [good] = seeded.tracks;
      await page.evaluate((track) => {
        const item = {
          id: track?.id,
          title: track?.title,
          artist: null,
          cover: null,
          duration: 20,
        };
        const bad = { ...item, id: "../../api/v1/users/me", cover: "javascript:alert(1)" };
        const queue = { v: 1, items: [bad, item], index: 1, ranks: null, position: 5, repeat: 9 };
        localStorage.setItem("edge-music.queue", JSON.stringify(queue));
      }, good);
      await page.reload();
      await expect.poll(() => nowPlaying(page)).toBe(good?.title);
      await page.getByRole("button", { name: "Queue (1)" }).waitFor();
      await page.getByRole("button", { name: "Repeat off" }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a listener adds a track to a playlist from the row's menu, and is told when it is already there", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl);
    try {
      // Signed out: no menu.
      await openArtist(page);
      const [a = ""] = await rowTitles(page);
      expect(await page.getByRole("button", { name: `Add ${a} to a playlist` }).count()).toBe(0);

      await signUpListener(page, stack.apiUrl, "menu");
      const playlistId = await page.evaluate(async () => {
        const answer = await fetch("/api/v1/playlists", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ title: "Road trip" }),
        });
        return ((await answer.json()) as { id: string }).id;
      });
      await openArtist(page);
      const menuButton = page.getByRole("button", { name: `Add ${a} to a playlist` });
      await menuButton.click();
      const menu = page.getByRole("menu", { name: `Add ${a} to a playlist` });
      const item = menu.getByRole("menuitem", { name: "Road trip" });
      // The first item takes the focus; Escape closes the menu back to its button.
      await expect.poll(() => item.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press("Escape");
      await expect.poll(() => menu.count()).toBe(0);
      expect(await menuButton.evaluate((el) => el === document.activeElement)).toBe(true);

      // By keyboard: ↓ opens it, Enter adds.
      await page.keyboard.press("ArrowDown");
      await expect.poll(() => item.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press("Enter");
      await notice(page, `Added ${a} to Road trip.`);
      await menuButton.click();
      await item.click();
      await notice(page, "Already in Road trip.");

      const trackIds = await page.evaluate(async (id) => {
        const answer = await fetch(`/api/v1/playlists/${id}`);
        return ((await answer.json()) as { tracks: { id: string }[] }).tracks.map((t) => t.id);
      }, playlistId);
      expect(trackIds).toEqual([seeded.tracks.find((t) => t.title === a)?.id]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a listener likes a track by its heart and finds it in Liked tracks, where it plays; the track's page knows", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl);
    try {
      await signUpListener(page, stack.apiUrl, "hearts");
      await openArtist(page);
      const [a = "", b = ""] = await rowTitles(page);
      const heart = page.getByRole("button", { name: `Keep ${a} in liked tracks` });
      expect(await heart.getAttribute("aria-pressed")).toBe("false");
      await heart.click();
      await expect.poll(() => heart.getAttribute("aria-pressed")).toBe("true");
      // The artist's own Like is another button: still not pressed.
      expect(
        await page.getByRole("button", { name: "Like", exact: true }).getAttribute("aria-pressed"),
      ).toBe("false");

      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: "Liked" })
        .click();
      const liked = page.getByRole("list", { name: "Liked tracks" });
      await liked.getByRole("link", { name: a, exact: true }).waitFor();
      expect(await liked.getByRole("link", { name: b, exact: true }).count()).toBe(0);
      await liked.getByRole("button", { name: `Play ${a}` }).click();
      await expect
        .poll(async () => (await audioState(page)).time, { timeout: 30_000 })
        .toBeGreaterThan(0.3);
      expect(await nowPlaying(page)).toBe(a);
      expect(
        await liked
          .getByRole("button", { name: `Keep ${a} in liked tracks` })
          .getAttribute("aria-pressed"),
      ).toBe("true");

      // The track's page: pressed there too; unliked there, gone from the list.
      const id = seeded.tracks.find((t) => t.title === a)?.id;
      await page.goto(`${stack.apiUrl}/tracks/${id}`);
      const onPage = page.getByRole("button", { name: "Liked", exact: true });
      expect(await onPage.getAttribute("aria-pressed")).toBe("true");
      const answered = page.waitForResponse((r) => r.url().endsWith("/like"));
      await onPage.click();
      const unliked = page.getByRole("button", { name: "Like", exact: true });
      await expect.poll(() => unliked.getAttribute("aria-pressed")).toBe("false");
      // A new page's list reads after the unlike has its answer (no request of the page before
      // is waited for across a load).
      expect((await answered).status()).toBe(200);
      await page.goto(`${stack.apiUrl}/liked`);
      await page.getByText("No liked tracks yet").waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a visitor's Like and Follow go to the sign-in and back to the page they were on", async () => {
    const first = await openWatched(browser, stack.apiUrl);
    const { page, context, problems } = await openWatched(browser, stack.apiUrl);
    try {
      const listener = await signUpListener(first.page, stack.apiUrl, "visitor");
      await first.context.close();
      const artistUrl = `${stack.apiUrl}/artists/${seeded.artistId}`;

      // A row's heart: to the sign-in, and back to the artist, where it is a heart to press.
      await openArtist(page);
      const [a = ""] = await rowTitles(page);
      await artistRows(page).getByRole("link", { name: "Sign in to like tracks" }).first().click();
      await page.waitForURL(`${stack.apiUrl}/sign-in`);
      await signInListener(page, listener);
      await page.waitForURL(artistUrl);
      const heart = page.getByRole("button", { name: `Keep ${a} in liked tracks` });
      expect(await heart.getAttribute("aria-pressed")).toBe("false");

      // Signed out again, the artist's Follow does the same.
      await page.goto(`${stack.apiUrl}/account`);
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.waitForURL(`${stack.apiUrl}/`);
      await openArtist(page);
      await page.getByRole("link", { name: `Follow ${shownAs}` }).click();
      await page.waitForURL(`${stack.apiUrl}/sign-in`);
      await signInListener(page, listener);
      await page.waitForURL(artistUrl);
      await page.getByRole("button", { name: `Follow ${shownAs}` }).waitFor();

      // A visitor who goes elsewhere instead is not taken back later.
      await page.goto(`${stack.apiUrl}/account`);
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.waitForURL(`${stack.apiUrl}/`);
      await openArtist(page);
      await page.getByRole("link", { name: "Like", exact: true }).click();
      await page.waitForURL(`${stack.apiUrl}/sign-in`);
      await page.getByRole("link", { name: "Edge Music" }).click();
      await page.getByRole("link", { name: "Sign in" }).first().click();
      await signInListener(page, listener);
      await page.waitForURL(`${stack.apiUrl}/`);
      await page.waitForTimeout(500);
      expect(page.url()).toBe(`${stack.apiUrl}/`);
      expect([...problems, ...first.problems]).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a signed-in listener's queue follows them to another browser, back when it is newer there, and out when they sign out", async () => {
    const here = await openWatched(browser, stack.apiUrl);
    const there = await openWatched(browser, stack.apiUrl);
    const saved = (page: Page) =>
      page.waitForResponse(
        (r) => r.url().endsWith("/api/v1/users/me/play-queue") && r.request().method() === "PUT",
      );
    try {
      const listener = await signUpListener(here.page, stack.apiUrl, "devices");
      const titles = await playAll(here.page);
      await here.page.getByRole("button", { name: "Next track" }).click();
      await expect.poll(() => nowPlaying(here.page)).toBe(titles[1]);
      await expect
        .poll(async () => (await audioState(here.page)).time, { timeout: 30_000 })
        .toBeGreaterThan(0.3);
      await seekTo(here.page, 12);
      const put = saved(here.page);
      await here.page.getByRole("button", { name: "Pause", exact: true }).click();
      expect((await put).status()).toBe(204);

      // Another browser: empty, it takes the server's queue, paused where it was.
      await there.page.goto(`${stack.apiUrl}/sign-in`);
      await signInListener(there.page, listener);
      await expect.poll(() => nowPlaying(there.page), { timeout: 10_000 }).toBe(titles[1]);
      await there.page.getByRole("button", { name: `Queue (${titles.length})` }).waitFor();
      const seek = there.page.getByRole("slider", { name: "Seek" });
      expect(Number(await seek.inputValue())).toBeGreaterThanOrEqual(11);
      expect((await audioState(there.page)).paused).toBe(true);

      // Played on there: the first browser, untouched since, takes that newer queue at its next load.
      await there.page.getByRole("button", { name: "Play", exact: true }).click();
      await expect
        .poll(async () => (await audioState(there.page)).time, { timeout: 30_000 })
        .toBeGreaterThan(12);
      await there.page.getByRole("button", { name: "Next track" }).click();
      await expect.poll(() => nowPlaying(there.page)).toBe(titles[2]);
      const putThere = saved(there.page);
      await there.page.getByRole("button", { name: "Pause", exact: true }).click();
      expect((await putThere).status()).toBe(204);
      await here.page.reload();
      await expect.poll(() => nowPlaying(here.page), { timeout: 10_000 }).toBe(titles[2]);
      expect((await audioState(here.page)).paused).toBe(true);

      // Signing out takes the queue along (the next person here does not get it), also after a
      // reload; signing in brings it back.
      await here.page.goto(`${stack.apiUrl}/account`);
      await here.page.getByRole("button", { name: "Sign out", exact: true }).click();
      await here.page.getByRole("button", { name: "Queue (0)" }).waitFor();
      expect(await nowPlaying(here.page)).toBe("Nothing playing");
      await here.page.reload();
      await here.page.getByRole("button", { name: "Queue (0)" }).waitFor();
      await here.page.goto(`${stack.apiUrl}/sign-in`);
      await signInListener(here.page, listener);
      await expect.poll(() => nowPlaying(here.page), { timeout: 10_000 }).toBe(titles[2]);
      expect([...here.problems, ...there.problems]).toEqual([]);
    } finally {
      await here.context.close();
      await there.context.close();
    }
  });

  test("the home page shows a listener what the artists they follow released, and how much is new since the last visit", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl, {
      bypassCSP: true,
    });
    try {
      await signUpListener(page, stack.apiUrl, "feed");
      const feed = page.getByRole("region", { name: "From artists you follow" });
      await feed.getByText(/follow artists to hear of their releases/).waitFor();
      await openArtist(page);
      await page.getByRole("button", { name: `Follow ${shownAs}` }).click();
      await page.getByRole("button", { name: `Following ${shownAs}` }).waitFor();
      // As if the last visit was before every release: all of them are new.
      await page.evaluate(() =>
        localStorage.setItem("edge-music.feed-seen", "2000-01-01T00:00:00.000Z"),
      );
      await page.goto(`${stack.apiUrl}/`);
      const releases = feed.getByRole("list", { name: "New from artists you follow" });
      await releases
        .locator("li")
        .nth(seeded.tracks.length - 1)
        .waitFor();
      // Newest first (the uploads ran side by side: the catalogue says which is newest), above
      // the site's new tracks.
      const newest = (await (
        await fetch(`${stack.apiUrl}/api/v1/tracks?artistId=${seeded.artistId}`)
      ).json()) as { title: string }[];
      const titles = await releases.locator("li .track-text a:first-child").allTextContents();
      expect(titles).toEqual(newest.map((t) => t.title));
      expect(await feed.locator("[data-new-since]").textContent()).toBe(
        `${seeded.tracks.length} new releases since your last visit.`,
      );
      const headings = await page.getByRole("heading", { level: 2 }).allTextContents();
      expect(headings.indexOf("From artists you follow")).toBeLessThan(
        headings.indexOf("New tracks"),
      );
      expect(await axeViolations(page)).toEqual([]);
      // The next visit counts from this one.
      await page.reload();
      await feed.getByText("Nothing new since your last visit.").waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a track page shows more like it: what its listeners also played", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl, {
      bypassCSP: true,
    });
    try {
      await signUpListener(page, stack.apiUrl, "related");
      await openArtist(page);
      const [first, second] = seeded.tracks as [
        { id: string; title: string },
        { id: string; title: string },
      ];
      // A play reaches the history once the (20-s) track was heard to its end, here at 4×: the
      // listener played both through.
      for (const track of [first, second]) {
        const recorded = playReported(page, track.id, "history");
        await page.getByRole("button", { name: `Play ${track.title}` }).click();
        await expect
          .poll(async () => (await audioState(page)).time, { timeout: 20_000 })
          .toBeGreaterThan(0);
        await hurry(page);
        expect((await recorded).ok()).toBe(true);
        // Stopped, so that the next row's button plays it: the queue may have gone on to the
        // next track, or ended (with nothing similar yet to keep playing).
        await page.evaluate(() =>
          (document.getElementById("player-audio") as HTMLAudioElement | null)?.pause(),
        );
      }
      await page.goto(`${stack.apiUrl}/tracks/${first.id}`);
      const more = page.getByRole("list", { name: "More like this" });
      await more.getByRole("link", { name: second.title }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("the queue panel, a row's menu, hearts, liked tracks and the notices pass axe's WCAG 2.1 A/AA rules and fit a 375-px screen", async () => {
    const { page, context, problems } = await openWatched(browser, stack.apiUrl, {
      viewport: PHONE,
      bypassCSP: true,
    });
    const findings: string[] = [];
    const check = async (what: string) => {
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        for (const v of await axeViolations(page)) {
          findings.push(`${what} (${viewport.width} px): ${v}`);
        }
        await shoot(page, `${what.replaceAll(" ", "-")}-${viewport.width}`);
      }
      await page.setViewportSize(PHONE);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      if (overflow > 0) findings.push(`${what}: ${overflow} px wider than a 375-px screen`);
    };
    try {
      await signUpListener(page, stack.apiUrl, "a11y_queue");
      await openArtist(page);
      const [a = ""] = await rowTitles(page);
      await page.getByRole("button", { name: `Add ${a} to the queue` }).click();
      await notice(page, `Added ${a} to the queue.`);
      await page.getByRole("button", { name: "Play all" }).click();
      await page.getByRole("button", { name: "Shuffle" }).click();
      await page.getByRole("button", { name: "Repeat off" }).click();
      await page.getByRole("button", { name: /^Queue \(\d+\)$/ }).click();
      await queueList(page).waitFor();
      await check("the queue panel and a notice");
      await page.getByRole("button", { name: /^Queue \(\d+\)$/ }).click();
      await page.getByRole("button", { name: `Add ${a} to a playlist` }).click();
      await page.getByRole("menuitem").first().waitFor();
      await check("a row's menu");
      await page.keyboard.press("Escape");
      const liked = page.waitForResponse((r) => r.url().endsWith("/like"));
      await page.getByRole("button", { name: `Keep ${a} in liked tracks` }).click();
      expect((await liked).status()).toBe(200);
      await page.goto(`${stack.apiUrl}/liked`);
      await page.getByRole("list", { name: "Liked tracks" }).waitFor();
      await check("liked tracks");
      await page.goto(`${stack.apiUrl}/tracks/${seeded.tracks[0]?.id}`);
      await page.getByRole("button", { name: /^Like/ }).waitFor();
      await check("a track's heart");
      await page.goto(`${stack.apiUrl}/account`);
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.waitForURL(`${stack.apiUrl}/`);
      await openArtist(page);
      await check("a visitor's sign-in links");
      expect(findings).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
