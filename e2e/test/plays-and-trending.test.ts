// Plays, statistics and discovery in a real browser (Debian's Chromium through playwright-core)
// against a private stack: a play is reported once the (20-s) track was heard to its end, never for
// a seek there, by a visitor anonymously and by a listener through the history; the counts show on
// the rows and the track's page; Trending lists the played tracks (the cron fired by the test); the
// artist's statistics chart plays per day, with the same numbers as a table; when the queue ends,
// similar tracks play on unless the listener turned that off. axe finds nothing on the new pages.
import { randomBytes } from "node:crypto";
import { CookieJar, createClient } from "@edge-music/client";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Session, uploadTrack, waitUntilReady } from "./support/api.ts";
import { fireMinuteCron, hurry, playReported } from "./support/playback.ts";
import {
  audioState,
  axeViolations,
  DESKTOP,
  PHONE,
  signUpListener,
  type WatchedPage,
} from "./support/player-page.ts";
import { webPlayerSuite } from "./support/web-player-suite.ts";

// Under `wrangler dev`, as `./run dev` runs the Worker (its queue consumer, its cron endpoint):
// the other files run the suite's one build of it in Miniflare (ADR 0031).
const web = webPlayerSuite("plays", { wranglerDev: true });

const tag = randomBytes(3).toString("hex");
const artist = {
  username: `plays_${tag}`,
  email: `plays-${tag}@example.test`,
  password: `pw-${randomBytes(8).toString("hex")}`,
};
let artistId: string;
/** A: played by the visitor and the listener; B: by the listener alone. */
let a: { id: string; title: string };
let b: { id: string; title: string };
/** The listener's page, kept from test to test (their history makes B "similar" to A). */
let listener: WatchedPage;

beforeAll(async () => {
  const jar = new CookieJar();
  const api = createClient({ baseUrl: web.stack.apiUrl, kind: "artist", fetch: jar.fetch });
  const made = await api.POST("/api/v1/artists/auth/register", { body: artist });
  if (!made.data) throw new Error(`no artist: ${made.response.status}`);
  artistId = made.data.id;
  const session: Session = { apiUrl: web.stack.apiUrl, api, cookie: "" };
  const titles = [`Tidal ${tag}`, `Undertow ${tag}`];
  const uploaded = await Promise.all(
    titles.map((title) => uploadTrack(web.stack.apiUrl, session, web.mp3, title)),
  );
  await Promise.all(
    uploaded.map(({ track }) => waitUntilReady(web.stack.apiUrl, session, track.id, 120_000)),
  );
  [a, b] = uploaded.map(({ track }) => ({ id: track.id, title: track.title })) as [
    typeof a,
    typeof b,
  ];
}, 240_000);

afterAll(async () => {
  await listener?.context.close();
});

const nowPlaying = (page: Page) => page.getByTestId("now-playing").textContent();
const rowOf = (page: Page, list: string, title: string) =>
  page.getByRole("list", { name: list }).locator("li").filter({ hasText: title });

async function watch(page: Page): Promise<string[]> {
  const reports: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && /\/api\/v1\/(plays|history\/tracks\/)/.test(r.url())) {
      reports.push(r.url());
    }
  });
  return reports;
}

async function playOnTrackPage(page: Page, track: { id: string }): Promise<void> {
  await page.goto(`${web.stack.apiUrl}/tracks/${track.id}`);
  await page.getByRole("main").getByRole("button", { name: "Play", exact: true }).click();
  await expect
    .poll(async () => (await audioState(page)).time, { timeout: 30_000 })
    .toBeGreaterThan(0.3);
}

const seekTo = (page: Page, seconds: number) =>
  page.getByRole("slider", { name: "Seek" }).fill(String(seconds));

const ended = (page: Page) =>
  expect.poll(async () => (await audioState(page)).paused, { timeout: 30_000 }).toBe(true);

describe("plays, trending and statistics", () => {
  test("a play is reported once the whole short track was heard (not for a seek to its end), and shows as a count", async () => {
    const visitor = await web.open(DESKTOP, { bypassCSP: true });
    try {
      // Nothing played yet: Trending says so.
      await visitor.page.goto(`${web.stack.apiUrl}/trending`);
      await visitor.page.getByText(/Nothing is trending today yet/).waitFor();
      expect(await axeViolations(visitor.page)).toEqual([]);

      const reports = await watch(visitor.page);
      await playOnTrackPage(visitor.page, a);
      await seekTo(visitor.page, 18.5);
      await ended(visitor.page);
      await visitor.page.waitForTimeout(1_000);
      expect(reports).toEqual([]);

      // Played again from its start, to its end: a visitor's anonymous report, at the end.
      const reported = playReported(visitor.page, a.id, "anonymous");
      await playOnTrackPage(visitor.page, a);
      await hurry(visitor.page);
      expect((await reported).status()).toBe(202);
      expect((await audioState(visitor.page)).time).toBeGreaterThan(18);
      expect(reports).toHaveLength(1);
      expect(visitor.problems).toEqual([]);
    } finally {
      await visitor.context.close();
    }

    // A listener plays both through: each reaches the history at its end.
    listener = await web.open(DESKTOP, { bypassCSP: true });
    const { page } = listener;
    await signUpListener(page, web.stack.apiUrl, "plays");
    await page.goto(`${web.stack.apiUrl}/artists/${artistId}`);
    const both = Promise.all([a, b].map((t) => playReported(page, t.id, "history")));
    await page.getByRole("button", { name: "Play all" }).click();
    await expect
      .poll(async () => (await audioState(page)).time, { timeout: 30_000 })
      .toBeGreaterThan(0.3);
    await hurry(page);
    for (const answer of await both) expect(answer.ok()).toBe(true);

    // Counted by the API's queue within seconds: A twice (two listeners), B once.
    const list = `Tracks of ${artist.username}`;
    await expect
      .poll(
        async () => {
          await page.reload();
          await rowOf(page, list, b.title).waitFor();
          return [
            await rowOf(page, list, a.title).locator(".plays").textContent(),
            await rowOf(page, list, b.title).locator(".plays").textContent(),
          ];
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toEqual(["2 plays", "1 play"]);
    await page.goto(`${web.stack.apiUrl}/tracks/${a.id}`);
    await page.getByText(/· 2 plays$/).waitFor();
    expect(listener.problems).toEqual([]);
  });

  test("Trending lists the played tracks, today and this week, and plays from there", async () => {
    const { page, problems } = listener;
    const today = page.getByRole("list", { name: "Trending today" });
    await expect
      .poll(
        async () => {
          await fireMinuteCron(web.stack.apiUrl);
          await page.goto(`${web.stack.apiUrl}/trending`);
          await page.getByRole("heading", { level: 1, name: "Trending" }).waitFor();
          await page.waitForLoadState("networkidle");
          return today.locator("li .track-text a:first-child").allTextContents();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toEqual([a.title, b.title]);
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Trending" })
      .waitFor();
    await page.getByLabel("This week").check();
    await page.waitForURL(`${web.stack.apiUrl}/trending?window=week`);
    const week = page.getByRole("list", { name: "Trending this week" });
    await week.getByRole("link", { name: a.title, exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await week.getByRole("button", { name: `Play ${b.title}` }).click();
    await expect.poll(() => nowPlaying(page)).toBe(b.title);
    await page.getByRole("button", { name: "Pause", exact: true }).click();
    expect(problems).toEqual([]);
  });

  test("the studio's statistics chart the plays per day, with the numbers in tables, for a track or all", async () => {
    const { page, context, problems } = await web.open(DESKTOP, { bypassCSP: true });
    try {
      await page.goto(`${web.stack.apiUrl}/sign-in`);
      await page.getByLabel("Artist", { exact: true }).check();
      await page.getByLabel("Email", { exact: true }).fill(artist.email);
      await page.getByLabel("Password", { exact: true }).fill(artist.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL(`${web.stack.apiUrl}/studio`);
      await page
        .getByRole("navigation", { name: "Studio" })
        .getByRole("link", { name: "Statistics" })
        .click();
      await page.getByRole("heading", { level: 1, name: "Statistics" }).waitFor();
      // The chart is drawn (uPlot's canvas), and its table holds the numbers.
      await page.locator("[data-chart=plays] canvas").first().waitFor();
      const todayLabel = new Date().toLocaleDateString("en-GB", {
        day: "numeric",
        month: "short",
        year: "numeric",
        timeZone: "UTC",
      });
      const days = page.getByRole("table", { name: "Plays per day" });
      const todayCells = () =>
        days.getByRole("row", { name: new RegExp(`^${todayLabel}`) }).locator("td");
      // Plays, listeners (the visitor's network and the listener), likes, new followers.
      expect(await todayCells().allTextContents()).toEqual(["3", "2", "0", "0"]);
      expect(await days.locator("tbody tr").count()).toBe(30);
      const top = page.getByRole("table", { name: "Most played" });
      expect(await top.locator("tbody tr").allInnerTexts()).toEqual([
        `${a.title}\t2\t2`,
        `${b.title}\t1\t1`,
      ]);
      const countries = page.getByRole("table", { name: "Countries" });
      expect(await countries.locator("tbody td").allTextContents()).toEqual(["3"]);
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        expect(await axeViolations(page)).toEqual([]);
      }
      await page.setViewportSize(PHONE);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      await page.setViewportSize(DESKTOP);

      // One track, over a week.
      await page.getByLabel("Track", { exact: true }).selectOption({ label: b.title });
      await page.getByLabel("Range", { exact: true }).selectOption({ label: "Last 7 days" });
      await page.waitForURL(/days=7/);
      await expect.poll(() => days.locator("tbody tr").count()).toBe(7);
      await expect.poll(() => todayCells().allTextContents()).toEqual(["1", "1", "0", "0"]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("when the queue ends, similar tracks play on; turned off, the player stops", async () => {
    const { page, problems } = listener;
    // The listener played A and B: B is what A's listeners also played.
    await playOnTrackPage(page, a);
    await seekTo(page, 19);
    await expect.poll(() => nowPlaying(page), { timeout: 30_000 }).toBe(b.title);
    await page.getByRole("button", { name: "Queue (2)" }).click();
    const setting = page.getByLabel("Keep playing similar tracks when the queue ends");
    expect(await setting.isChecked()).toBe(true);
    await setting.uncheck();
    await page.reload();
    await page.getByRole("button", { name: /^Queue \(\d+\)$/ }).click();
    expect(await setting.isChecked()).toBe(false);

    await playOnTrackPage(page, a);
    await seekTo(page, 19);
    await ended(page);
    await page.waitForTimeout(1_500);
    expect(await nowPlaying(page)).toBe(a.title);
    expect((await audioState(page)).paused).toBe(true);
    await page.getByRole("button", { name: "Queue (1)" }).waitFor();
    expect(problems).toEqual([]);
  });
});
