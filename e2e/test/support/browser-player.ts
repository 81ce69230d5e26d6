import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { type Browser, chromium } from "playwright-core";

/**
 * Debian's Chromium as the old headless shell: the same Blink, media stack and DevTools protocol as
 * `chromium --headless`, without the full browser's UI layers, and what Playwright itself launches
 * headless. Measured on the player-queue file alone: 77 → 32 CPU s of Chromium, 137 → 101 s.
 */
export const CHROMIUM = "/usr/bin/chromium-headless-shell";

/** The flags of ARCHITECTURE.md: headless, offline, and playback without a user gesture. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--autoplay-policy=no-user-gesture-required",
];

/**
 * The player page: hls.js on a muted <audio>, with what happened exposed on `window.player`.
 * The master playlist URL comes from the query string.
 */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>hls.js player</title>
<audio id="audio" muted></audio>
<script src="/hls.min.js"></script>
<script>
  const audio = document.getElementById("audio");
  const player = (window.player = { supported: Hls.isSupported(), levels: null, fatal: null, events: [] });
  const hls = new Hls();
  hls.on(Hls.Events.MANIFEST_PARSED, (_event, data) => {
    player.levels = data.levels.length;
    player.events.push("MANIFEST_PARSED");
    audio.play().catch((error) => player.events.push("play() refused: " + error.message));
  });
  hls.on(Hls.Events.ERROR, (_event, data) => {
    player.events.push("ERROR " + data.type + " " + data.details + (data.fatal ? " (fatal)" : ""));
    if (data.fatal) player.fatal = data.type + " " + data.details;
  });
  audio.addEventListener("playing", () => player.events.push("playing"));
  hls.loadSource(new URLSearchParams(location.search).get("src"));
  hls.attachMedia(audio);
</script>
`;

/** Serves the page and hls.js on 127.0.0.1 (another origin than the Worker's: a CORS check). */
export async function startPageServer(): Promise<{ origin: string; stop(): Promise<void> }> {
  const hlsScript = await readFile(
    createRequire(import.meta.url).resolve("hls.js/dist/hls.min.js"),
  );
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://page").pathname;
    if (path === "/") res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
    else if (path === "/hls.min.js")
      res.writeHead(200, { "content-type": "text/javascript" }).end(hlsScript);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the page server has no port");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Debian's chromium, driven by playwright-core; a missing browser is an error, not a skip. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the browser tests need Debian's chromium-headless-shell (scripts/setup.sh installs it; by hand: apt-get install --no-install-recommends chromium-headless-shell)`,
    );
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  // Playwright's 30-s bounds on a navigation or an action are hit on a loaded two-core machine
  // (five files side by side, each with its stack and its Chromium) by a page that is only slow:
  // every context of this browser gets wider ones (bounds, not expectations, as in the config).
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(60_000);
    context.setDefaultNavigationTimeout(90_000);
    return context;
  };
  return browser;
}

export interface PlaybackState {
  supported: boolean;
  levels: number | null;
  fatal: string | null;
  events: string[];
  currentTime: number;
}

/**
 * Opens the player on `masterUrl` and waits until the audio has played past `seconds` (or a fatal
 * hls.js error, or the time is up). Returns the last state seen, whatever happened.
 */
export async function playUntil(
  browser: Browser,
  pageOrigin: string,
  masterUrl: string,
  seconds: number,
  timeoutMs: number,
): Promise<PlaybackState> {
  const page = await browser.newPage();
  try {
    await page.goto(`${pageOrigin}/?src=${encodeURIComponent(masterUrl)}`);
    const read = () =>
      page.evaluate(() => {
        const w = window as unknown as { player: Omit<PlaybackState, "currentTime"> };
        const audio = document.getElementById("audio") as HTMLAudioElement;
        return { ...w.player, events: [...w.player.events], currentTime: audio.currentTime };
      });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const state = await read();
      if (state.currentTime > seconds || state.fatal || !state.supported) return state;
      if (Date.now() > deadline) return state;
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await page.close();
  }
}
