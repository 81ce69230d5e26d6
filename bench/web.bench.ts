// The web player as a listener meets it, in Debian's Chromium on the local stack (the Worker
// under wrangler serving the player and the API, the real transcoder; DEV_DB_RTT_MS sets the
// distance to Postgres). Each round is a new browser context (an empty browser cache):
// 1. First load of / : navigation to DOMContentLoaded and load, and until the first tracks are on
//    screen (the page's API reads included); bytes transferred.
// 2. Time to first audio: from the click on a track's play button (hls.js not yet loaded) to the
//    <audio>'s first `playing` event, then until currentTime passes 0.5 s.
// The first round meets a cold edge cache; the rest are what most visitors get.
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { migrate } from "@edge-music/db/migrate";
import { logTail, startInfra, startStackWorker, startTranscoderProcess } from "@edge-music/stack";
// Relative: the client is not a dependency of the root (openapi-fetch resolves from its folder).
import { CookieJar, createClient, unwrap } from "../client/src/index.ts";
// playwright-core is the e2e package's dependency (this file is type-checked with that package).
import { launchChromium } from "../e2e/test/support/browser-player.ts";
import { makeMp3Source } from "../e2e/test/support/media.ts";
import { summarize } from "./support/stats.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);

const stops: Array<() => Promise<void>> = [];
const stopAll = async () => {
  for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
};
process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));

try {
  const tmp = await mkdtemp(join(tmpdir(), "edge-music-bench-web-"));
  stops.push(() => rm(tmp, { recursive: true, force: true }));
  const tail = logTail(60);
  const infra = await startInfra();
  stops.push(infra.stop);
  await migrate(infra.databaseUrl);
  const transcoder = startTranscoderProcess(infra, { log: tail.add("transcoder") });
  stops.push(() => transcoder.stop(15_000));
  const worker = await startStackWorker(infra, { tmp, log: tail.add("worker") });
  stops.push(worker.stop);
  const origin = new URL(worker.url).origin;

  // One READY track of 3 minutes, uploaded and converted as an artist would.
  const source = join(tmp, "bench.mp3");
  await makeMp3Source(source, 180);
  const jar = new CookieJar();
  const artist = createClient({ baseUrl: origin, kind: "artist", fetch: jar.fetch });
  const id = randomBytes(4).toString("hex");
  unwrap(
    await artist.POST("/api/v1/artists/auth/register", {
      body: {
        username: `bench_${id}`,
        email: `bench-${id}@example.test`,
        password: `pw-${id}-long`,
      },
    }),
  );
  const file = new File([await readFile(source)], basename(source), { type: "audio/mpeg" });
  const track = await artist.uploadTrack({ file, title: `Bench ${id}` });
  for (let state = track.processingStatus; state !== "READY"; ) {
    if (state === "FAILED") throw new Error(`the conversion failed\n${tail.text()}`);
    await new Promise((r) => setTimeout(r, 500));
    const now = unwrap(
      await artist.GET("/api/v1/tracks/{id}", { params: { path: { id: track.id } } }),
    );
    state = "processingStatus" in now ? now.processingStatus : "READY";
  }

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
    `web player, ${ROUNDS} rounds (each a new browser context), database ${infra.dbRttMs} ms away`,
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
