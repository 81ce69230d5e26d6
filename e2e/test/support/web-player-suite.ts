// What the web player's test files share: one private stack and one Chromium per file (so the
// files run side by side, each on its own), READY tracks of one artist for the pages that show
// them, and the page helpers: a context watched for what a page must not do, signing up through
// the form, a TOTP code, the player's audio time.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchChromium } from "./browser-player.ts";
import { type LocalStack, startLocalStack } from "./local-stack.ts";
import { makeMp3Source } from "./media.ts";
import { DESKTOP, readyTracks } from "./player-page.ts";

/** What a page did that it must not: requests elsewhere, CSP breaches, uncaught errors. */
export interface Watch {
  page: Page;
  context: BrowserContext;
  problems: string[];
}

export interface WebPlayerSuite {
  stack: LocalStack;
  browser: Browser;
  /** The file's own temporary folder. */
  work: string;
  /** An MP3 in `work` (20 s unless asked otherwise), the source of the seeded tracks. */
  mp3: string;
  /** With `seed`: a READY track made through the API, for the listener's pages. */
  seeded: { title: string; artist: string; trackId: string; artistId: string };
  /** With `seed`: a second READY track of the same artist. */
  other: { title: string; trackId: string };
  /** A new browser context on the Worker's origin (and `allow`), watched. */
  open(
    viewport?: { width: number; height: number },
    options?: { bypassCSP?: boolean; allow?: string[] },
  ): Promise<Watch>;
  /** Signs up through the page; returns the password it chose. */
  signUp(page: Page, kind: "Listener" | "Artist", username: string): Promise<string>;
  /** A TOTP code from the stand-ins' oracle (otplib: an implementation apart from the Worker's). */
  totpCode(secret: string): Promise<string>;
}

/**
 * Starts the file's stack and browser before its first test (with `seed`, two READY tracks of a
 * new artist too) and stops them after its last; the fields are filled in by then. `seconds` is
 * the MP3's length: shorter for a file whose tracks only need to be READY and play a little
 * (each second is converted, by every seeded track). `wranglerDev`: the Worker under `wrangler dev`
 * (startLocalStack).
 */
export function webPlayerSuite(
  name: string,
  { seed = false, seconds = 20, wranglerDev = false } = {},
): WebPlayerSuite {
  const suite = {
    async open(viewport = DESKTOP, options: { bypassCSP?: boolean; allow?: string[] } = {}) {
      const allowed = [new URL(suite.stack.apiUrl).origin, ...(options.allow ?? [])];
      const context = await suite.browser.newContext({
        viewport,
        deviceScaleFactor: 1,
        ...(options.bypassCSP ? { bypassCSP: true } : {}),
      });
      const page = await context.newPage();
      const problems: string[] = [];
      await context.route(
        (url) => !allowed.includes(url.origin) && !["data:", "blob:"].includes(url.protocol),
        (route) => {
          problems.push(`request to another origin: ${route.request().url()}`);
          return route.abort();
        },
      );
      page.on("console", (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) {
          problems.push(message.text());
        }
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      return { page, context, problems };
    },
    async signUp(page: Page, kind: "Listener" | "Artist", username: string) {
      const password = `pw-${randomBytes(8).toString("hex")}`;
      await page.goto(`${suite.stack.apiUrl}/sign-up`);
      await page.getByLabel(kind, { exact: true }).check();
      await page.getByLabel("Username", { exact: true }).fill(username);
      await page.getByLabel("Email", { exact: true }).fill(`${username}@example.test`);
      await page.getByLabel("Password", { exact: true }).fill(password);
      await page.getByRole("button", { name: "Create account" }).click();
      return password;
    },
    async totpCode(secret: string) {
      // Early in a 30-s step, so that the code is still current when the Worker checks it.
      const into = Date.now() % 30_000;
      if (into > 20_000) await new Promise((r) => setTimeout(r, 30_000 - into + 100));
      const answer = await fetch(`${suite.stack.standInsUrl}/oracle/totp`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ secret, timeMs: Date.now() }),
      });
      return ((await answer.json()) as { code: string }).code;
    },
  } as WebPlayerSuite;

  beforeAll(async () => {
    suite.work = await mkdtemp(join(tmpdir(), `edge-music-e2e-web-${name}-`));
    suite.mp3 = join(suite.work, "web-tone.mp3");
    // Kept as soon as each runs, so that afterAll stops them even when another part failed.
    await Promise.all([
      startLocalStack({ wranglerDev }).then((stack) => {
        suite.stack = stack;
      }),
      launchChromium().then((browser) => {
        suite.browser = browser;
      }),
      makeMp3Source(suite.mp3, seconds),
    ]);
    if (!seed) return;
    const title = `Neon Web ${randomBytes(3).toString("hex")}`;
    const secondTitle = `Second Light ${randomBytes(3).toString("hex")}`;
    const made = await readyTracks(suite.stack.apiUrl, suite.mp3, [title, secondTitle]);
    const [track, second] = made.tracks;
    if (!track || !second) throw new Error("the seeded tracks were not made");
    suite.seeded = { title, artist: made.artist, trackId: track.id, artistId: made.artistId };
    suite.other = { title: secondTitle, trackId: second.id };
  });

  afterAll(async () => {
    await suite.browser?.close();
    await suite.stack?.stop();
    if (suite.work) await rm(suite.work, { recursive: true, force: true });
  });

  return suite;
}

/** Where the player's <audio> element is, in seconds. */
export const audioTime = (page: Page) =>
  page.evaluate(
    () => (document.getElementById("player-audio") as HTMLAudioElement | null)?.currentTime ?? 0,
  );

/** SCREENSHOTS=<folder> asks for the screens (`shoot`) at phone width too. */
export const SCREENSHOTS = Boolean(process.env.SCREENSHOTS);
