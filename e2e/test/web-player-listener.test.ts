// The web player (web/) in a real browser (Debian's Chromium through playwright-core), served by
// the local stack's Worker at / with the API, as a listener uses it: signs up, searches as they
// type, plays a track (the audio advances, hls.js picks a quality), builds a playlist and likes
// the artist; plays with the keyboard and the lock screen's controls; keeps playing when the
// access cookie runs out; pages through long lists. Nothing is requested from another origin and
// no page error or CSP breach happens on the way. With SCREENSHOTS=<folder>, the main screens are
// saved there (desktop and phone width).
import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { hurry } from "./support/playback.ts";
import { PHONE, shoot } from "./support/player-page.ts";
import { audioTime, SCREENSHOTS, webPlayerSuite } from "./support/web-player-suite.ts";

const web = webPlayerSuite("listener", { seed: true });

describe("the web player", () => {
  test("serves the player at / and at any path of its own, with its Content-Security-Policy", async () => {
    for (const path of ["/", "/artists/not-a-page-of-the-api", "/search?q=x"]) {
      const answer = await fetch(`${web.stack.apiUrl}${path}`);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get("content-type")).toMatch(/text\/html/);
      expect(answer.headers.get("content-security-policy")).toMatch(/default-src 'self'/);
      expect(await answer.text()).toContain('<div id="app">');
    }
    // The API keeps its own answers: an unknown API path is a problem document, not the page.
    const api = await fetch(`${web.stack.apiUrl}/api/v1/nothing-here`);
    expect(api.status).toBe(404);
    expect(api.headers.get("content-type")).toMatch(/application\/problem\+json/);
  });

  test("a listener signs up, searches as they type, plays a track, builds a playlist and likes the artist", async () => {
    const { page, context, problems } = await web.open();
    try {
      const username = `listener_${randomBytes(3).toString("hex")}`;
      await web.signUp(page, "Listener", username);
      await page.waitForURL(`${web.stack.apiUrl}/`);
      await expect
        .poll(() => page.getByRole("link", { name: `Account: ${username}` }).count())
        .toBe(1);
      await shoot(page, "home-desktop");

      // Search as you type: no submit, results appear.
      await page
        .getByRole("searchbox", { name: /Search tracks/ })
        .pressSequentially(web.seeded.title.slice(0, 8), { delay: 40 });
      const found = page.getByRole("list", { name: "Tracks found" });
      await found.getByRole("link", { name: web.seeded.title }).waitFor({ timeout: 15_000 });
      expect(page.url()).toContain("/search?q=");

      // Play: the audio advances and hls.js has chosen a quality.
      await found.getByRole("button", { name: `Play ${web.seeded.title}` }).click();
      await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThan(2);
      await expect.poll(() => page.getByTestId("quality").textContent()).toMatch(/^\d+ kbps$/);
      await expect.poll(() => page.getByTestId("now-playing").textContent()).toBe(web.seeded.title);
      await page.getByTestId("waveform").waitFor({ timeout: 10_000 });
      // The lock screen knows the track; the loudness correction measured at conversion is applied.
      await expect
        .poll(() => page.evaluate(() => navigator.mediaSession.metadata?.title))
        .toBe(web.seeded.title);
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
      await search.fill(web.seeded.title);
      const again = page.getByRole("list", { name: "Tracks found" });
      await again.getByRole("link", { name: web.seeded.title }).click();
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
        .getByRole("link", { name: web.seeded.title })
        .waitFor();
      await shoot(page, "playlist-desktop");

      // Like the artist.
      await page.getByRole("link", { name: web.seeded.artist }).first().click();
      await page.waitForURL(/\/artists\/[0-9a-f-]{36}$/);
      // The seeded artist's only fan is this listener: the counts start at 0 and follow each press.
      await page.getByText("0 followers · 0 likes").waitFor();
      const like = page.getByRole("button", { name: /^Like/ });
      await like.click();
      await expect.poll(() => like.getAttribute("aria-pressed")).toBe("true");
      await page.getByText("0 followers · 1 like").waitFor();
      const follow = page.getByRole("button", { name: `Follow ${web.seeded.artist}` });
      await follow.click();
      await page.getByRole("button", { name: `Following ${web.seeded.artist}` }).waitFor();
      await page.getByText("1 follower · 1 like").waitFor();
      // Read again, the page knows both from the artist's read (its `viewer` and `_count`).
      await page.reload();
      await page.getByRole("button", { name: `Following ${web.seeded.artist}` }).waitFor();
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
        .getByRole("link", { name: web.seeded.artist })
        .click();
      await page.getByRole("button", { name: `Following ${web.seeded.artist}` }).waitFor();

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
      expect([web.seeded.title, web.other.title]).toContain(firstTitle);
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
      await expect
        .poll(nowPlaying)
        .toBe(firstTitle === web.seeded.title ? web.other.title : web.seeded.title);
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

  test("plays with the keyboard alone: / to search, Tab to a result, Enter to play, K to pause; controls keep their keys; the shortcuts turn off", async () => {
    const { page, context, problems } = await web.open();
    try {
      await page.goto(`${web.stack.apiUrl}/`);
      await page.getByRole("heading", { name: "Listen now" }).waitFor();
      await page.keyboard.press("/");
      await page.keyboard.type(web.seeded.title);
      const play = page
        .getByRole("list", { name: "Tracks found" })
        .getByRole("button", { name: `Play ${web.seeded.title}` });
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
      await page.goto(`${web.stack.apiUrl}/sign-up`);
      await page.getByLabel("Listener", { exact: true }).focus();
      await page.keyboard.press("ArrowRight");
      expect(await page.getByLabel("Artist", { exact: true }).isChecked()).toBe(true);
      // Space ticks a checkbox: here the one that turns the shortcuts off, and then "/" is a
      // plain key; on again, it goes to the search field.
      await page.goto(`${web.stack.apiUrl}/shortcuts`);
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
    const { page, context, problems } = await web.open();
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
      await page.goto(`${web.stack.apiUrl}/artists/${web.seeded.artistId}`);
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
    const { page, context, problems } = await web.open();
    try {
      await web.signUp(page, "Listener", `expiry_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${web.stack.apiUrl}/`);
      await page.goto(`${web.stack.apiUrl}/artists/${web.seeded.artistId}`);
      await page.getByRole("button", { name: "Play all" }).click();
      await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThan(0.5);
      const first = await page.getByTestId("now-playing").textContent();

      // The access cookie goes bad (as one past its 5 minutes would); the refresh cookie is
      // still good. The next request that needs the session meets a 401: the next track's files
      // unless the edge answers them (public), else its play's report to the history.
      const access = (await context.cookies()).find((c) => c.name === "access_token");
      expect(access).toBeDefined();
      await context.addCookies([{ ...(access as NonNullable<typeof access>), value: "expired" }]);
      const refreshes: string[] = [];
      page.on("request", (request) => {
        if (request.url().endsWith("/auth/refresh")) refreshes.push(request.url());
      });
      const reported = page.waitForResponse(
        (r) =>
          r.request().method() === "POST" &&
          r.url().includes("/api/v1/history/tracks/") &&
          r.status() !== 401,
        { timeout: 60_000 },
      );
      await page.getByRole("button", { name: "Next track" }).click();
      await expect.poll(() => page.getByTestId("now-playing").textContent()).not.toBe(first);
      await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThan(0.5);
      // Heard through (at 4×): its play is reported, with the session refreshed first.
      await hurry(page);
      expect((await reported).status()).toBe(201);
      expect(refreshes.length).toBeGreaterThanOrEqual(1);
      expect(await page.getByRole("alert").count()).toBe(0);
      // The refresh's answer may come after the audio has started (a public track's files need
      // no session): its new cookie is waited for, not read at once.
      const accessValue = async () =>
        (await context.cookies()).find((c) => c.name === "access_token")?.value;
      await expect.poll(accessValue).toMatch(/./);
      await expect.poll(accessValue).not.toBe("expired");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("long lists read 50 at a time: Load more brings the rest, each once, and takes the focus to the first new one; search shows more of a type on request", async () => {
    const { page, context, problems } = await web.open();
    try {
      await web.signUp(page, "Listener", `many_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${web.stack.apiUrl}/`);
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
        await page.goto(`${web.stack.apiUrl}${path}`);
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
      await page.goto(`${web.stack.apiUrl}/search?q=Mix`);
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
    const { page, context, problems } = await web.open();
    try {
      await web.signUp(page, "Listener", `order_${randomBytes(3).toString("hex")}`);
      await page.waitForURL(`${web.stack.apiUrl}/`);
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
        [web.seeded.trackId, web.other.trackId],
      );
      await page.goto(`${web.stack.apiUrl}/playlists/${id}`);
      const list = page.getByRole("list", { name: "Tracks of In order" });
      const titles = () => list.locator("li a:first-of-type").allTextContents();
      await expect.poll(titles).toEqual([web.seeded.title, web.other.title]);
      await page.getByRole("button", { name: `Move ${web.other.title} up` }).click();
      await expect.poll(titles).toEqual([web.other.title, web.seeded.title]);
      await page.getByRole("status").filter({ hasText: "Moved" }).waitFor();
      await page.reload();
      await expect.poll(titles).toEqual([web.other.title, web.seeded.title]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
