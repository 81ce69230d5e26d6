// The web player (web/) in a real browser (Debian's Chromium through playwright-core), served by
// the local stack's Worker at / with the API: a listener signs up, searches as they type, plays a
// track (the audio advances, hls.js picks a quality), builds a playlist and likes the artist; an
// artist signs up, uploads a file, watches it reach READY, and sees a broken upload's reason.
// Nothing is requested from another origin and no page error or CSP breach happens on the way.
// With SCREENSHOTS=<folder>, the main screens are saved there (desktop and phone width).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { registerArtist, uploadTrack, waitUntilReady } from "./support/api.ts";
import { launchChromium } from "./support/browser-player.ts";
import { type LocalStack, startLocalStack } from "./support/local-stack.ts";
import { makeMp3Source } from "./support/media.ts";

const SCREENSHOTS = process.env.SCREENSHOTS ? resolve(process.env.SCREENSHOTS) : undefined;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

let stack: LocalStack;
let browser: Browser;
let work: string;
let mp3: string;
/** A READY track made through the API, for the listener's flow. */
let seeded: { title: string; artist: string; trackId: string; artistId: string };
/** A second READY track of the same artist. */
let other: { title: string; trackId: string };

/** What a page did that it must not: requests elsewhere, CSP breaches, uncaught errors. */
interface Watch {
  page: Page;
  context: BrowserContext;
  problems: string[];
}

async function open(
  viewport = DESKTOP,
  options: { bypassCSP?: boolean; allow?: string[] } = {},
): Promise<Watch> {
  const allowed = [new URL(stack.apiUrl).origin, ...(options.allow ?? [])];
  const context = await browser.newContext({
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
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return { page, context, problems };
}

async function shoot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** Signs up through the page; returns the password it chose. */
async function signUp(page: Page, kind: "Listener" | "Artist", username: string): Promise<string> {
  const password = `pw-${randomBytes(8).toString("hex")}`;
  await page.goto(`${stack.apiUrl}/sign-up`);
  await page.getByLabel(kind, { exact: true }).check();
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Email", { exact: true }).fill(`${username}@example.test`);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  return password;
}

/** A TOTP code from the stand-ins' oracle (otplib: an implementation apart from the Worker's). */
async function totpCode(secret: string): Promise<string> {
  // Early in a 30-s step, so that the code is still current when the Worker checks it.
  const into = Date.now() % 30_000;
  if (into > 20_000) await new Promise((r) => setTimeout(r, 30_000 - into + 100));
  const answer = await fetch(`${stack.standInsUrl}/oracle/totp`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ secret, timeMs: Date.now() }),
  });
  return ((await answer.json()) as { code: string }).code;
}

const audioTime = (page: Page) =>
  page.evaluate(
    () => (document.getElementById("player-audio") as HTMLAudioElement | null)?.currentTime ?? 0,
  );

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "edge-music-e2e-web-"));
  mp3 = join(work, "web-tone.mp3");
  [stack, browser] = await Promise.all([
    startLocalStack(),
    launchChromium(),
    makeMp3Source(mp3, 20),
  ]);
  const artist = await registerArtist(stack.apiUrl);
  const title = `Neon Web ${randomBytes(3).toString("hex")}`;
  const secondTitle = `Second Light ${randomBytes(3).toString("hex")}`;
  const [{ track }, { track: second }] = await Promise.all([
    uploadTrack(stack.apiUrl, artist, mp3, title),
    uploadTrack(stack.apiUrl, artist, mp3, secondTitle),
  ]);
  await Promise.all([track, second].map((t) => waitUntilReady(stack.apiUrl, artist, t.id, 90_000)));
  other = { title: secondTitle, trackId: second.id };
  const me = (await artist.api.GET("/api/v1/artists/auth/me")).data;
  seeded = { title, artist: me?.username ?? "", trackId: track.id, artistId: me?.id ?? "" };
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("the web player", () => {
  test("serves the player at / and at any path of its own, with its Content-Security-Policy", async () => {
    for (const path of ["/", "/artists/not-a-page-of-the-api", "/search?q=x"]) {
      const answer = await fetch(`${stack.apiUrl}${path}`);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get("content-type")).toMatch(/text\/html/);
      expect(answer.headers.get("content-security-policy")).toMatch(/default-src 'self'/);
      expect(await answer.text()).toContain('<div id="app">');
    }
    // The API keeps its own answers: an unknown API path is a problem document, not the page.
    const api = await fetch(`${stack.apiUrl}/api/v1/nothing-here`);
    expect(api.status).toBe(404);
    expect(api.headers.get("content-type")).toMatch(/application\/problem\+json/);
  });

  test("a listener signs up, searches as they type, plays a track, builds a playlist and likes the artist", async () => {
    const { page, context, problems } = await open();
    try {
      const username = `listener_${randomBytes(3).toString("hex")}`;
      await signUp(page, "Listener", username);
      await page.waitForURL(`${stack.apiUrl}/`);
      await expect
        .poll(() => page.getByRole("link", { name: `Account: ${username}` }).count())
        .toBe(1);
      await shoot(page, "home-desktop");

      // Search as you type: no submit, results appear.
      await page
        .getByRole("searchbox", { name: /Search tracks/ })
        .pressSequentially(seeded.title.slice(0, 8), { delay: 40 });
      const found = page.getByRole("list", { name: "Tracks found" });
      await found.getByRole("link", { name: seeded.title }).waitFor({ timeout: 15_000 });
      expect(page.url()).toContain("/search?q=");

      // Play: the audio advances and hls.js has chosen a quality.
      await found.getByRole("button", { name: `Play ${seeded.title}` }).click();
      await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThan(2);
      await expect.poll(() => page.getByTestId("quality").textContent()).toMatch(/^\d+ kbps$/);
      await expect.poll(() => page.getByTestId("now-playing").textContent()).toBe(seeded.title);
      await page.getByTestId("waveform").waitFor({ timeout: 10_000 });
      // The lock screen knows the track; the loudness correction measured at conversion is applied.
      await expect
        .poll(() => page.evaluate(() => navigator.mediaSession.metadata?.title))
        .toBe(seeded.title);
      await expect
        .poll(() => page.getByRole("button", { name: "Normalise" }).getAttribute("title"))
        .toMatch(/^Loudness normalisation \([+-]?\d+\.\d dB\)$/);
      await shoot(page, "playing-desktop");

      // Keyboard: K pauses, the time stands still.
      await page.locator("body").press("k");
      await expect
        .poll(() =>
          page.evaluate(() => (document.getElementById("player-audio") as HTMLAudioElement).paused),
        )
        .toBe(true);
      const stopped = await audioTime(page);
      await page.waitForTimeout(500);
      expect(await audioTime(page)).toBeCloseTo(stopped, 1);

      // A playlist with the track.
      await page.getByRole("link", { name: "Library" }).click();
      await page.getByLabel("Playlist title").fill("Road trip");
      await page.getByRole("button", { name: "Create playlist" }).click();
      await page.waitForURL(/\/playlists\/[0-9a-f-]{36}$/);
      // Within the page from here on (no reload): the player keeps its track.
      const search = page.getByRole("searchbox", { name: /Search tracks/ });
      await search.fill(seeded.title);
      const again = page.getByRole("list", { name: "Tracks found" });
      await again.getByRole("link", { name: seeded.title }).click();
      await page.getByLabel("Playlist", { exact: true }).selectOption({ label: "Road trip" });
      await page.getByRole("button", { name: "Add to playlist" }).click();
      await page.getByText("Added to Road trip.").waitFor();
      await page.getByRole("link", { name: "Library" }).click();
      await page
        .getByRole("link", { name: /Road trip/ })
        .first()
        .click();
      await page
        .getByRole("list", { name: /Tracks/ })
        .getByRole("link", { name: seeded.title })
        .waitFor();
      await shoot(page, "playlist-desktop");

      // Like the artist.
      await page.getByRole("link", { name: seeded.artist }).first().click();
      await page.waitForURL(/\/artists\/[0-9a-f-]{36}$/);
      // The seeded artist's only fan is this listener: the counts start at 0 and follow each press.
      await page.getByText("0 followers · 0 likes").waitFor();
      const like = page.getByRole("button", { name: /^Like/ });
      await like.click();
      await expect.poll(() => like.getAttribute("aria-pressed")).toBe("true");
      await page.getByText("0 followers · 1 like").waitFor();
      const follow = page.getByRole("button", { name: `Follow ${seeded.artist}` });
      await follow.click();
      await page.getByRole("button", { name: `Following ${seeded.artist}` }).waitFor();
      await page.getByText("1 follower · 1 like").waitFor();
      // Read again, the page knows both from the artist's read (its `viewer` and `_count`).
      await page.reload();
      await page.getByRole("button", { name: `Following ${seeded.artist}` }).waitFor();
      expect(await page.getByRole("button", { name: /^Liked/ }).getAttribute("aria-pressed")).toBe(
        "true",
      );
      await page.getByText("1 follower · 1 like").waitFor();
      // The liked artist is kept on the listener's Liked page; back to the artist from there.
      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: "Liked" })
        .click();
      await page
        .getByRole("list", { name: "Artists you like" })
        .getByRole("link", { name: seeded.artist })
        .click();
      await page.getByRole("button", { name: `Following ${seeded.artist}` }).waitFor();

      // The artist's tracks as the queue: the next one plays after a press of "Next track".
      const trackReads: string[] = [];
      page.on("request", (request) => {
        const path = new URL(request.url()).pathname;
        if (/^\/api\/v1\/tracks\/[0-9a-f-]{36}$/.test(path)) trackReads.push(path);
      });
      await page.getByRole("button", { name: "Play all" }).click();
      const nowPlaying = () => page.getByTestId("now-playing").textContent();
      await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThan(0.5);
      const firstTitle = await nowPlaying();
      // The artist's list carries each track's loudness: the gain applies without another read.
      expect(await page.getByRole("button", { name: "Normalise" }).getAttribute("title")).toMatch(
        /^Loudness normalisation \([+-]?\d+\.\d dB\)$/,
      );
      expect(trackReads).toEqual([]);
      expect([seeded.title, other.title]).toContain(firstTitle);
      // The next track starts from its own beginning: a new load of the element, then time again.
      await page.evaluate(() => {
        const w = window as unknown as { loads: number };
        w.loads = 0;
        document.addEventListener("loadstart", () => w.loads++, true);
      });
      await page.getByRole("button", { name: "Next track" }).click();
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { loads: number }).loads))
        .toBeGreaterThan(0);
      await expect.poll(nowPlaying).toBe(firstTitle === seeded.title ? other.title : seeded.title);
      await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThan(0.5);
      await expect
        .poll(() => page.getByRole("button", { name: /^Queue/ }).textContent())
        .toBe("Queue (2)");

      if (SCREENSHOTS) {
        await page.setViewportSize(PHONE);
        await shoot(page, "artist-phone");
        await page.getByRole("link", { name: "Edge Music" }).click();
        await page.getByRole("heading", { name: "Listen now" }).waitFor();
        await shoot(page, "home-phone");
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("an artist signs up, uploads a file, watches it reach READY, and sees a broken upload's reason", async () => {
    const { page, context, problems } = await open();
    try {
      const username = `artist_${randomBytes(3).toString("hex")}`;
      await signUp(page, "Artist", username);
      await page.waitForURL(`${stack.apiUrl}/studio`);

      await page.goto(`${stack.apiUrl}/studio/upload`);
      await page.getByLabel("Audio file").setInputFiles(mp3);
      await page.getByLabel("Title", { exact: true }).fill("Studio tone");
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      const status = page.getByRole("status").filter({ hasText: /Ready|Convert|Wait|Fail/ });
      await status.filter({ hasText: "Ready" }).waitFor({ timeout: 90_000 });
      await shoot(page, "upload-desktop");

      // A file that looks like an MP3 but does not decode: FAILED, with the reason shown.
      const broken = join(work, "broken.mp3");
      await writeFile(
        broken,
        Buffer.concat([Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x00"), randomBytes(64 * 1024)]),
      );
      await page.getByRole("link", { name: "Upload another" }).click();
      await page.getByLabel("Audio file").setInputFiles(broken);
      await page.getByLabel("Title", { exact: true }).fill("Broken take");
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      await page
        .getByRole("status")
        .filter({ hasText: /Failed: \S+/ })
        .waitFor({ timeout: 60_000 });

      await page.goto(`${stack.apiUrl}/studio`);
      await page
        .getByText(/Failed: \S+/)
        .first()
        .waitFor();
      await page.getByRole("button", { name: "Retry Broken take" }).waitFor();
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

  test("an artist who signs in as a Listener (the page's default) gets in as the artist, and the page remembers the kind", async () => {
    const first = await open();
    const fresh = await open();
    try {
      const username = `kind_${randomBytes(3).toString("hex")}`;
      const password = await signUp(first.page, "Artist", username);
      await first.page.waitForURL(`${stack.apiUrl}/studio`);

      // Another browser, which remembers nothing: the page offers Listener.
      const page = fresh.page;
      const signIn = async (secret: string) => {
        await page.goto(`${stack.apiUrl}/sign-in`);
        await page.getByLabel("Email", { exact: true }).fill(`${username}@example.test`);
        await page.getByLabel("Password", { exact: true }).fill(secret);
        await page.getByRole("button", { name: "Sign in", exact: true }).click();
      };
      await page.goto(`${stack.apiUrl}/sign-in`);
      expect(await page.getByLabel("Listener", { exact: true }).isChecked()).toBe(true);
      // A wrong password is refused by both kinds: the usual message, nothing more.
      await signIn("not the password");
      await page
        .getByRole("alert")
        .filter({ hasText: /email or the password is wrong/i })
        .waitFor();
      await signIn(password);
      await page.waitForURL(`${stack.apiUrl}/studio`);
      await page.getByRole("link", { name: `Account: ${username}` }).waitFor();
      // Next time the page starts on the kind that worked.
      await page.goto(`${stack.apiUrl}/account`);
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.waitForURL(`${stack.apiUrl}/`);
      await page.goto(`${stack.apiUrl}/sign-in`);
      expect(await page.getByLabel("Artist", { exact: true }).isChecked()).toBe(true);
      expect([...first.problems, ...fresh.problems]).toEqual([]);
    } finally {
      await first.context.close();
      await fresh.context.close();
    }
  });

  test("a converting track's row keeps moving when the API refuses it a live stream (the cap): it reads the track instead", async () => {
    const long = join(work, "long-tone.mp3");
    await makeMp3Source(long, 240);
    const { page, context, problems } = await open();
    const holders = new AbortController();
    try {
      await signUp(page, "Artist", `artist_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${stack.apiUrl}/studio`);
      const cookies = await context.cookies(`${stack.apiUrl}/api/v1/tracks`);
      const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
      const form = new FormData();
      const bytes = await readFile(long);
      form.set("file", new File([bytes], "long-tone.mp3", { type: "audio/mpeg" }));
      form.set("title", "Long tone");
      const uploaded = await fetch(`${stack.apiUrl}/api/v1/tracks`, {
        method: "POST",
        body: form,
        headers: { cookie, origin: stack.apiUrl },
      });
      expect(uploaded.status).toBe(202);
      const { id } = (await uploaded.json()) as { id: string };
      // Five listeners elsewhere hold every live stream the track may have (the API's cap).
      const held = await Promise.all(
        Array.from({ length: 5 }, () =>
          fetch(`${stack.apiUrl}/api/v1/tracks/${id}/events`, {
            headers: { cookie },
            signal: holders.signal,
          }),
        ),
      );
      expect(held.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

      await page.goto(`${stack.apiUrl}/studio`);
      const row = page.getByRole("listitem").filter({ hasText: "Long tone" });
      const status = row.locator(".status");
      await expect.poll(() => status.textContent()).toMatch(/Waiting|Converting/);
      // Refused, its stream gives way to reading the track: the row reaches Ready all the same.
      await row.locator(".status", { hasText: "Ready" }).waitFor({ timeout: 150_000 });
      expect(problems).toEqual([]);
    } finally {
      holders.abort();
      await context.close();
    }
  }, 180_000);

  test("every main screen passes axe's WCAG 2.1 A/AA rules and fits a 375-px screen", async () => {
    // axe-core is injected as a script of its own, which the pages' CSP would refuse: this
    // context alone bypasses it (the other tests keep it, and fail on any breach).
    const { page, context, problems } = await open(PHONE, { bypassCSP: true });
    const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
    const findings: string[] = [];
    const check = async (path: string, heading: string | RegExp) => {
      await page.goto(`${stack.apiUrl}${path}`);
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
      await check(`/search?q=${encodeURIComponent(seeded.title)}`, "Search");
      await check(`/artists/${seeded.artistId}`, seeded.artist);
      await check(`/tracks/${seeded.trackId}`, seeded.title);
      await check("/sign-in", /Sign in/);
      await check("/sign-up", /Create an account/);
      await check("/forgot-password", /password/i);
      await check("/shortcuts", "Keyboard shortcuts");

      await signUp(page, "Listener", `a11y_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${stack.apiUrl}/`);
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
      await page.waitForURL(`${stack.apiUrl}/`);

      await signUp(page, "Artist", `a11y_artist_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${stack.apiUrl}/studio`);
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

  test("plays with the keyboard alone: / to search, Tab to a result, Enter to play, K to pause; controls keep their keys; the shortcuts turn off", async () => {
    const { page, context, problems } = await open();
    try {
      await page.goto(`${stack.apiUrl}/`);
      await page.getByRole("heading", { name: "Listen now" }).waitFor();
      await page.keyboard.press("/");
      await page.keyboard.type(seeded.title);
      const play = page
        .getByRole("list", { name: "Tracks found" })
        .getByRole("button", { name: `Play ${seeded.title}` });
      await play.waitFor();
      let reached = false;
      for (let i = 0; i < 30 && !reached; i++) {
        await page.keyboard.press("Tab");
        reached = await play.evaluate((button) => button === document.activeElement);
      }
      expect(reached, "Tab never reached the result's play button").toBe(true);
      await page.keyboard.press("Enter");
      await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThan(1);
      await page.keyboard.press("Escape");
      await page.locator("body").focus();
      await page.keyboard.press("k");
      await expect
        .poll(() =>
          page.evaluate(() => (document.getElementById("player-audio") as HTMLAudioElement).paused),
        )
        .toBe(true);

      // A focused control keeps the keys it uses: the arrows choose among radios.
      await page.goto(`${stack.apiUrl}/sign-up`);
      await page.getByLabel("Listener", { exact: true }).focus();
      await page.keyboard.press("ArrowRight");
      expect(await page.getByLabel("Artist", { exact: true }).isChecked()).toBe(true);
      // Space ticks a checkbox: here the one that turns the shortcuts off, and then "/" is a
      // plain key; on again, it goes to the search field.
      await page.goto(`${stack.apiUrl}/shortcuts`);
      const toggle = page.getByLabel("Use keyboard shortcuts");
      expect(await toggle.isChecked()).toBe(true);
      await toggle.focus();
      await page.keyboard.press(" ");
      expect(await toggle.isChecked()).toBe(false);
      const searchFocused = () => page.evaluate(() => document.activeElement?.id === "search");
      await page.locator("main h1").focus();
      await page.keyboard.press("/");
      expect(await searchFocused()).toBe(false);
      await toggle.focus();
      await page.keyboard.press(" ");
      await page.locator("main h1").focus();
      await page.keyboard.press("/");
      expect(await searchFocused()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("the lock screen's controls (Media Session actions) drive the player", async () => {
    const { page, context, problems } = await open();
    // Headless Chromium has no lock screen: the handlers the page gives the Media Session are
    // kept as it sets them, and called as the system would call them.
    await context.addInitScript(() => {
      const handlers: Record<string, MediaSessionActionHandler | null> = {};
      Object.assign(window, { mediaActions: handlers });
      const session = navigator.mediaSession;
      const set = session.setActionHandler.bind(session);
      session.setActionHandler = (action, handler) => {
        handlers[action] = handler;
        set(action, handler);
      };
    });
    const act = (action: MediaSessionAction, details: Partial<MediaSessionActionDetails> = {}) =>
      page.evaluate(
        ([action, details]) => {
          const handlers = (window as unknown as { mediaActions: Record<string, unknown> })
            .mediaActions;
          const handler = handlers[action] as MediaSessionActionHandler | undefined;
          if (!handler) throw new Error(`no handler for ${action}`);
          handler({ action, ...details } as MediaSessionActionDetails);
        },
        [action, details] as const,
      );
    const paused = () =>
      page.evaluate(() => (document.getElementById("player-audio") as HTMLAudioElement).paused);
    const nowPlaying = () => page.getByTestId("now-playing").textContent();
    try {
      await page.goto(`${stack.apiUrl}/artists/${seeded.artistId}`);
      await page.getByRole("button", { name: "Play all" }).click();
      await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThan(0.5);
      const first = await nowPlaying();

      await act("pause");
      await expect.poll(paused).toBe(true);
      await act("seekto", { seekTime: 12 });
      await expect.poll(() => audioTime(page)).toBeCloseTo(12, 0);
      await act("seekbackward", { seekOffset: 5 });
      await expect.poll(() => audioTime(page)).toBeCloseTo(7, 0);
      await act("seekforward");
      await expect.poll(() => audioTime(page)).toBeCloseTo(17, 0);
      await act("play");
      await expect.poll(paused).toBe(false);

      await act("nexttrack");
      await expect.poll(nowPlaying).not.toBe(first);
      await expect
        .poll(() => page.evaluate(() => navigator.mediaSession.metadata?.title))
        .toBe(await nowPlaying());
      // Within its first 3 s, "previous" goes back a track rather than to the start.
      await act("previoustrack");
      await expect.poll(nowPlaying).toBe(first);

      // Removing the other entry from the queue by keyboard: the focus stays in the queue (on
      // its heading, as no other entry is left to remove), not lost to the page.
      await page.getByRole("button", { name: "Queue (2)" }).click();
      const removeOther = page.getByRole("button", { name: /^Remove .* from the queue$/ });
      await removeOther.focus();
      await page.keyboard.press("Enter");
      await page.getByRole("button", { name: "Queue (1)" }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Queue");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("playback goes on when the access cookie has run out: the player refreshes the session once", async () => {
    const { page, context, problems } = await open();
    try {
      await signUp(page, "Listener", `expiry_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${stack.apiUrl}/`);
      await page.goto(`${stack.apiUrl}/artists/${seeded.artistId}`);
      await page.getByRole("button", { name: "Play all" }).click();
      await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThan(0.5);
      const first = await page.getByTestId("now-playing").textContent();

      // The access cookie goes bad (as one past its 5 minutes would): the next stream's first
      // request is a 401, the refresh cookie is still good.
      const access = (await context.cookies()).find((c) => c.name === "access_token");
      expect(access).toBeDefined();
      await context.addCookies([{ ...(access as NonNullable<typeof access>), value: "expired" }]);
      const refreshes: string[] = [];
      page.on("request", (request) => {
        if (request.url().endsWith("/auth/refresh")) refreshes.push(request.url());
      });
      await page.getByRole("button", { name: "Next track" }).click();
      await expect.poll(() => page.getByTestId("now-playing").textContent()).not.toBe(first);
      await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThan(0.5);
      expect(refreshes.length).toBeGreaterThanOrEqual(1);
      expect(await page.getByRole("alert").count()).toBe(0);
      const renewed = (await context.cookies()).find((c) => c.name === "access_token");
      expect(renewed?.value).not.toBe("expired");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a listener resets a forgotten password from the mailed link, which leaves no token in the address", async () => {
    const { page, context, problems } = await open();
    try {
      const username = `forgot_${randomBytes(3).toString("hex")}`;
      const email = `${username}@example.test`;
      await signUp(page, "Listener", username);
      await page.waitForURL(`${stack.apiUrl}/`);
      await context.clearCookies();

      await page.goto(`${stack.apiUrl}/forgot-password`);
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByRole("button", { name: /reset link/i }).click();
      const mailed = async () => {
        const answer = await fetch(
          `${stack.standInsUrl}/mail/messages?to=${encodeURIComponent(email)}`,
        );
        const messages = (await answer.json()) as Array<{ text: string | null }>;
        return messages
          .map((m) => /https?:\/\/\S+reset-password\S+/.exec(m.text ?? "")?.[0])
          .find(Boolean);
      };
      await expect.poll(mailed, { timeout: 15_000 }).toBeTruthy();
      const link = new URL((await mailed()) as string);
      expect(link.searchParams.get("token")).toBeTruthy();

      await page.goto(`${stack.apiUrl}${link.pathname}${link.search}`);
      await page.getByRole("heading", { name: "Set a new password" }).waitFor();
      // The token is kept by the page, not in the address (nor the history entry).
      await expect.poll(() => new URL(page.url()).searchParams.has("token")).toBe(false);
      const password = `new-${randomBytes(8).toString("hex")}`;
      await page.getByLabel("New password", { exact: true }).fill(password);
      await page.getByRole("button", { name: "Set new password" }).click();
      await page.getByText("Your new password is set").waitFor();

      await page.getByRole("link", { name: "Sign in" }).last().click();
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill(password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL(`${stack.apiUrl}/`);
      await page.getByRole("link", { name: `Account: ${username}` }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a listener signs in with Google (the stand-in provider) and comes back to the player signed in", async () => {
    // The provider's pages are the one other origin a sign-in through it must reach.
    const { page, context, problems } = await open(DESKTOP, {
      allow: [new URL(stack.standInsUrl).origin],
    });
    try {
      await page.goto(`${stack.apiUrl}/sign-in`);
      await page.getByRole("link", { name: "Continue with Google" }).click();
      await page.waitForURL(`${stack.apiUrl}/`);
      await page.getByRole("link", { name: /^Account: / }).waitFor();
      await page.getByRole("link", { name: "Library" }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a listener turns on 2FA from its QR code, signs in elsewhere with a recovery code, and signs that session out", async () => {
    const first = await open();
    const second = await open();
    try {
      const { page } = first;
      const username = `twofa_${randomBytes(3).toString("hex")}`;
      const password = await signUp(page, "Listener", username);
      await page.waitForURL(`${stack.apiUrl}/`);
      await page.getByRole("link", { name: `Account: ${username}` }).click();

      const setUp = page.getByRole("form", { name: "Set up two-factor authentication" });
      await setUp.getByLabel("Current password").fill(password);
      await setUp.getByRole("button", { name: "Set up two-factor authentication" }).click();
      const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
      await qr.waitFor();
      // A real PNG that the browser decoded.
      expect(await qr.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(
        100,
      );
      const secret = (await page.locator("code.break").textContent()) ?? "";
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      const turnOn = page.getByRole("form", { name: "Turn on two-factor authentication" });
      await turnOn.getByLabel("Authentication code").fill(await totpCode(secret));
      await turnOn.getByRole("button", { name: "Turn on" }).click();
      await page.getByRole("heading", { name: "Your recovery codes" }).waitFor();
      const codes = await page.locator("ol code").allTextContents();
      expect(codes).toHaveLength(10);
      await page.getByRole("button", { name: "I have saved them" }).click();

      // Elsewhere: the password, then the second factor (a recovery code).
      const other = second.page;
      await other.goto(`${stack.apiUrl}/sign-in`);
      await other.getByLabel("Listener", { exact: true }).check();
      await other.getByLabel("Email", { exact: true }).fill(`${username}@example.test`);
      await other.getByLabel("Password", { exact: true }).fill(password);
      await other.getByRole("button", { name: "Sign in" }).click();
      await other.getByLabel("Authentication code").fill(codes[0] ?? "");
      await other.getByRole("button", { name: "Verify" }).click();
      await other.getByRole("link", { name: `Account: ${username}` }).waitFor();

      // Back on the first: two sessions; signing the other out leaves one.
      await page.reload();
      const sessions = page.getByRole("table", { name: "Sessions" });
      await expect.poll(() => sessions.getByRole("row").count()).toBe(3); // the header and two
      await page.getByRole("button", { name: "Sign out everywhere else" }).click();
      await expect.poll(() => sessions.getByRole("row").count()).toBe(2);
      // The button keeps the keyboard focus (it is not disabled under it).
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe(
        "Sign out everywhere else",
      );
      await other.reload();
      await other.getByRole("link", { name: "Sign in" }).waitFor();
      expect([...first.problems, ...second.problems]).toEqual([]);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });

  test("long lists read 50 at a time: Load more brings the rest, each once, and takes the focus to the first new one; search shows more of a type on request", async () => {
    const { page, context, problems } = await open();
    try {
      await signUp(page, "Listener", `many_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${stack.apiUrl}/`);
      // 52 public playlists, each liked, made through the API from the page (its cookies).
      await page.evaluate(async () => {
        for (let i = 1; i <= 52; i++) {
          const made = await fetch("/api/v1/playlists", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ title: `Mix ${String(i).padStart(2, "0")}`, isPublic: true }),
          }).then((r) => r.json() as Promise<{ id: string }>);
          await fetch(`/api/v1/playlists/${made.id}/like`, { method: "POST" });
        }
      });
      for (const [path, list] of [
        ["/library", "Your playlists"],
        ["/liked", "Playlists you like"],
      ] as const) {
        await page.goto(`${stack.apiUrl}${path}`);
        const cards = page.getByRole("list", { name: list }).getByRole("link");
        await expect.poll(() => cards.count()).toBe(50);
        // Newest first: the first 50 are Mix 52 down to Mix 03.
        expect(await cards.first().textContent()).toBe("Mix 52");
        await page.getByRole("button", { name: "Load more" }).first().focus();
        await page.keyboard.press("Enter");
        await expect.poll(() => cards.count()).toBe(52);
        const names = await cards.allTextContents();
        expect(new Set(names).size).toBe(52);
        expect(names.at(-1)).toBe("Mix 01");
        // The button went with the last page: the focus is on the first card it brought.
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.textContent))
          .toBe("Mix 02");
      }
      // Search answers 10 of a type at first; "More playlists" reads that type again, 50 at most.
      await page.goto(`${stack.apiUrl}/search?q=Mix`);
      const found = page.getByRole("list", { name: "Playlists found" }).getByRole("link");
      await expect.poll(() => found.count()).toBe(10);
      // A screen reader hears one line, not every result.
      await page.getByRole("status").filter({ hasText: "Found 10 playlists for “Mix”." }).waitFor();
      await page.getByRole("button", { name: "More playlists" }).click();
      await expect.poll(() => found.count()).toBe(50);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.closest("li")?.textContent))
        .toBe(await found.nth(10).textContent());
      expect(await page.getByRole("button", { name: "More playlists" }).count()).toBe(0);
      // Typing on: the results and the status line are the new query's, never the last one's.
      await page.locator("#search").fill("Mix 0");
      await page
        .getByRole("status")
        .filter({ hasText: "Found 9 playlists for “Mix 0”." })
        .waitFor();
      await expect.poll(() => found.count()).toBe(9);
      expect(await found.first().textContent()).toBe("Mix 09");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a playlist's owner reorders its tracks, and the order holds after a reload", async () => {
    const { page, context, problems } = await open();
    try {
      await signUp(page, "Listener", `order_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${stack.apiUrl}/`);
      // The playlist is made through the API from the page (its cookies), the order through the UI.
      const id = await page.evaluate(
        async (trackIds) => {
          const send = (path: string, body: unknown) =>
            fetch(path, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(body),
            }).then((r) => r.json() as Promise<{ id: string }>);
          const playlist = await send("/api/v1/playlists", { title: "In order" });
          await send(`/api/v1/playlists/${playlist.id}/tracks`, { trackIds });
          return playlist.id;
        },
        [seeded.trackId, other.trackId],
      );
      await page.goto(`${stack.apiUrl}/playlists/${id}`);
      const list = page.getByRole("list", { name: "Tracks of In order" });
      const titles = () => list.locator("li a:first-of-type").allTextContents();
      await expect.poll(titles).toEqual([seeded.title, other.title]);
      await page.getByRole("button", { name: `Move ${other.title} up` }).click();
      await expect.poll(titles).toEqual([other.title, seeded.title]);
      await page.getByRole("status").filter({ hasText: "Moved" }).waitFor();
      await page.reload();
      await expect.poll(titles).toEqual([other.title, seeded.title]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a file over 95 MB goes from the studio as a direct upload whose parts pass through the API", async () => {
    // 68 s of 192 kHz stereo 32-bit float noise: ~104 MB, past the form upload's 95 MB.
    const big = join(work, "big.wav");
    await promisify(execFile)("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "anoisesrc=d=68:r=192000:a=0.3"],
      ...["-ac", "2", "-c:a", "pcm_f32le", big],
    ]);
    const { page, context, problems } = await open();
    const parts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT") parts.push(new URL(request.url()).pathname);
    });
    try {
      await signUp(page, "Artist", `big_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${stack.apiUrl}/studio`);
      await page.getByRole("link", { name: "Upload", exact: true }).first().click();
      await page.getByLabel("Audio file").setInputFiles(big);
      await page.getByLabel("Title", { exact: true }).fill("Long take");
      await page.getByRole("button", { name: "Upload", exact: true }).click();
      await page
        .getByRole("status")
        .filter({ hasText: /Ready|Convert|Wait/ })
        .waitFor({ timeout: 60_000 });
      expect(parts.length).toBeGreaterThan(10);
      for (const path of parts)
        expect(path).toMatch(/^\/api\/v1\/uploads\/[0-9a-f-]{36}\/parts\/\d+$/);
      await page.getByRole("status").filter({ hasText: "Ready" }).waitFor({ timeout: 120_000 });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
