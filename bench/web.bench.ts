// The web player as a listener meets it, in Debian's Chromium on the local stack (the Worker
// under wrangler serving the player and the API, the real transcoder; DEV_DB_RTT_MS sets the
// distance to Postgres). Each round is a new browser context (an empty browser cache):
// 1. First load of / : navigation to DOMContentLoaded and load, and until the first tracks are on
//    screen (the page's API reads included); bytes transferred.
// 2. Time to first audio: from the click on a track's play button (hls.js not yet loaded) to the
//    <audio>'s first `playing` event, then until currentTime passes 0.5 s.
// The first round meets a cold edge cache; the rest are what most visitors get.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
// The e2e suite's stack and helpers (this file is type-checked with that package: playwright-core).
import { registerArtist, uploadTrack, waitUntilReady } from "../e2e/test/support/api.ts";
import { launchChromium } from "../e2e/test/support/browser-player.ts";
import { startLocalStack } from "../e2e/test/support/local-stack.ts";
import { makeMp3Source } from "../e2e/test/support/media.ts";
import { summarize } from "./support/stats.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const DB_RTT_MS = Number(process.env.DEV_DB_RTT_MS || 0);

const stops: Array<() => Promise<void>> = [];
const stopAll = async () => {
  for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
};
process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));

try {
  const tmp = await mkdtemp(join(tmpdir(), "edge-music-bench-web-"));
  stops.push(() => rm(tmp, { recursive: true, force: true }));
  // The Worker, the transcoder and their infrastructure, as the browser tests run them.
  const stack = await startLocalStack();
  stops.push(stack.stop);
  const origin = new URL(stack.apiUrl).origin;

  // One READY track of 3 minutes, uploaded and converted as an artist would.
  const source = join(tmp, "bench.mp3");
  await makeMp3Source(source, 180);
  const id = randomBytes(4).toString("hex");
  const artist = await registerArtist(origin);
  const { track } = await uploadTrack(origin, artist, source, `Bench ${id}`);
  await waitUntilReady(origin, artist, track.id, 120_000);

  const browser = await launchChromium();
  stops.push(() => browser.close());
  const rows: Record<string, number[]> = {
    "DOMContentLoaded (ms)": [],
    "load (ms)": [],
    "tracks on screen (ms)": [],
    "transferred (KiB)": [],
    "click → playing (ms)": [],
    "click → 0.5 s played (ms)": [],
  };
  const add = (key: string, value: number) => rows[key]?.push(value);
  for (let round = 0; round < ROUNDS; round++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.getByRole("button", { name: `Play Bench ${id}` }).waitFor({ timeout: 30_000 });
    const load = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      return {
        dcl: nav.domContentLoadedEventEnd,
        load: nav.loadEventEnd,
        onScreen: performance.now(),
        bytes: nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0),
      };
    });
    add("DOMContentLoaded (ms)", load.dcl);
    add("load (ms)", load.load);
    add("tracks on screen (ms)", load.onScreen);
    add("transferred (KiB)", load.bytes / 1024);

    await page.evaluate(() => {
      const w = window as unknown as { bench: { playing?: number; played?: number } };
      w.bench = {};
      document.addEventListener(
        "playing",
        () => {
          w.bench.playing ??= performance.now();
        },
        true,
      );
      document.addEventListener(
        "timeupdate",
        (event) => {
          if ((event.target as HTMLAudioElement).currentTime > 0.5)
            w.bench.played ??= performance.now();
        },
        true,
      );
    });
    const clicked = await page.evaluate(() => performance.now());
    await page.getByRole("button", { name: `Play Bench ${id}` }).click();
    await page.waitForFunction(
      () => (window as unknown as { bench: { played?: number } }).bench.played !== undefined,
      undefined,
      { timeout: 30_000 },
    );
    const audio = await page.evaluate(
      () => (window as unknown as { bench: { playing: number; played: number } }).bench,
    );
    add("click → playing (ms)", audio.playing - clicked);
    add("click → 0.5 s played (ms)", audio.played - clicked);
    await context.close();
  }
  console.log(
    `web player, ${ROUNDS} rounds (each a new browser context), database ${DB_RTT_MS} ms away`,
  );
  for (const [name, values] of Object.entries(rows)) {
    const rest = summarize(values.slice(1));
    console.log(
      `  ${name.padEnd(26)} first round ${values[0]?.toFixed(0)}; then p50 ${rest.p50.toFixed(0)}, max ${rest.max.toFixed(0)}`,
    );
  }
} finally {
  await stopAll();
}
