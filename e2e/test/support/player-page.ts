// The web player in a browser context of its own, watched for what it must not do (requests to
// another origin, CSP breaches, uncaught errors); signing up through its form; axe's WCAG checks;
// the <audio> element's state; READY tracks of a new artist made through the API.
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { registerArtist, uploadTrack, waitUntilReady } from "./api.ts";

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** What the page did that it must not: a test ends with `expect(problems).toEqual([])`. */
  problems: string[];
}

/**
 * A new context (no cookies, no storage) on the Worker's origin. `bypassCSP` lets axe's script
 * in (only for the context that runs axe).
 */
export async function openWatched(
  browser: Browser,
  apiUrl: string,
  options: { viewport?: { width: number; height: number }; bypassCSP?: boolean } = {},
): Promise<WatchedPage> {
  const origin = new URL(apiUrl).origin;
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    deviceScaleFactor: 1,
    // A download (recovery codes) is kept for the test to read.
    acceptDownloads: true,
    ...(options.bypassCSP ? { bypassCSP: true } : {}),
  });
  const page = await context.newPage();
  const problems: string[] = [];
  await context.route(
    (url) => url.origin !== origin && !["data:", "blob:"].includes(url.protocol),
    (route) => {
      problems.push(`request to another origin: ${route.request().url()}`);
      return route.abort();
    },
  );
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return { page, context, problems };
}

export interface Listener {
  username: string;
  email: string;
  password: string;
}

/** Signs a new listener up through the page and waits for the home page. */
export async function signUpListener(
  page: Page,
  apiUrl: string,
  prefix: string,
): Promise<Listener> {
  const username = `${prefix}_${randomBytes(3).toString("hex")}`;
  const listener = {
    username,
    email: `${username}@example.test`,
    password: `pw-${randomBytes(8).toString("hex")}`,
  };
  await page.goto(`${apiUrl}/sign-up`);
  await page.getByLabel("Listener", { exact: true }).check();
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Email", { exact: true }).fill(listener.email);
  await page.getByLabel("Password", { exact: true }).fill(listener.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(`${apiUrl}/`);
  await page.getByRole("link", { name: `Account: ${username}` }).waitFor();
  return listener;
}

/** Signs in through the page where it is now (the sign-in page), as a listener. */
export async function signInListener(page: Page, listener: Listener): Promise<void> {
  await page.getByLabel("Listener", { exact: true }).check();
  await page.getByLabel("Email", { exact: true }).fill(listener.email);
  await page.getByLabel("Password", { exact: true }).fill(listener.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("link", { name: `Account: ${listener.username}` }).waitFor();
}

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/**
 * axe's WCAG 2.1 A/AA violations on the page (or in one of its frames, such as an embed) as it
 * is now ("rule at selector, …").
 */
export async function axeViolations(page: Page | Frame): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return await page.evaluate(async () => {
    type Result = { violations: { id: string; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run(...args: unknown[]): Promise<Result> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return result.violations.map(
      (v) => `${v.id} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    );
  });
}

const SCREENSHOTS = process.env.SCREENSHOTS ? resolve(process.env.SCREENSHOTS) : undefined;

/** With SCREENSHOTS=<folder>, the page as it looks now, saved there as <name>.png. */
export async function shoot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** The player's <audio> element: where it is, and whether it is paused. */
export const audioState = (page: Page) =>
  page.evaluate(() => {
    const audio = document.getElementById("player-audio") as HTMLAudioElement | null;
    return { time: audio?.currentTime ?? 0, paused: audio?.paused ?? true };
  });

/** A new artist (with a display name, if given) and its READY tracks of these titles, from one file. */
export async function readyTracks(
  apiUrl: string,
  source: string,
  titles: string[],
  displayName?: string,
): Promise<{ artistId: string; artist: string; tracks: { id: string; title: string }[] }> {
  const artist = await registerArtist(apiUrl);
  const uploaded = await Promise.all(
    titles.map((title) => uploadTrack(apiUrl, artist, source, title)),
  );
  await Promise.all(uploaded.map(({ track }) => waitUntilReady(apiUrl, artist, track.id, 120_000)));
  const me = (await artist.api.GET("/api/v1/artists/auth/me")).data;
  if (!me) throw new Error("the new artist cannot read itself");
  if (displayName !== undefined) {
    const named = await artist.api.PUT("/api/v1/artists/{id}", {
      params: { path: { id: me.id } },
      body: { displayName },
    });
    if (!named.response.ok) throw new Error(`no display name: ${named.response.status}`);
  }
  return {
    artistId: me.id,
    artist: me.username,
    tracks: uploaded.map(({ track }) => ({ id: track.id, title: track.title })),
  };
}
