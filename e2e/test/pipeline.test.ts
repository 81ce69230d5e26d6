// End to end through the local stack: an artist uploads through the real Worker (wrangler,
// S3 storage), the real transcoder converts from the real queue, and real HLS clients play the
// result over HTTP: ffmpeg, and hls.js in headless Chromium on another origin.
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type UploadProgress, unwrap } from "@edge-music/client";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OwnTrack, registerArtist, uploadTrack, waitUntilReady } from "./support/api.ts";
import { launchChromium, playUntil, startPageServer } from "./support/browser-player.ts";
import { type LocalStack, startLocalStack } from "./support/local-stack.ts";
import { decodeRendition, makeMp3Source, probeDuration } from "./support/media.ts";
import { type MediaPlaylist, parseMaster, parseMedia } from "./support/playlists.ts";

const SOURCE_SECONDS = 20;
/** A 192 kbps source gets the rungs that do not exceed it. */
const EXPECTED_RUNGS = ["128", "192"];

let stack: LocalStack;
let work: string;
let sourceDuration: number;
let ready: OwnTrack | undefined;

const readyId = () => {
  if (!ready) throw new Error("no converted track: the upload test failed");
  return ready.id;
};
const masterUrl = () => `${stack.apiUrl}/api/v1/tracks/stream/${readyId()}/hls/master.m3u8`;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "edge-music-e2e-source-"));
  const source = join(work, "tone.mp3");
  [stack] = await Promise.all([startLocalStack(), makeMp3Source(source, SOURCE_SECONDS)]);
  sourceDuration = await probeDuration(source);
});

afterAll(async () => {
  await stack?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("an upload, end to end", () => {
  test("is accepted, converted with rising progress, and READY", async () => {
    const artist = await registerArtist(stack.apiUrl);
    const source = join(work, "tone.mp3");
    const sent: UploadProgress[] = [];
    const upload = await uploadTrack(stack.apiUrl, artist, source, "E2E tone", (p) => sent.push(p));
    expect(upload.status).toBe(202);
    expect(upload.track.processingStatus).toBe("PROCESSING");
    // The client's upload progress: rising, up to the whole file.
    expect(sent.map((p) => p.loaded)).toEqual([...sent.map((p) => p.loaded)].sort((a, b) => a - b));
    const { size } = await stat(source);
    expect(sent.at(-1)).toEqual({ loaded: size, total: size });

    const { track, progress } = await waitUntilReady(
      stack.apiUrl,
      artist,
      upload.track.id,
      90_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n--- logs ---\n${stack.logs()}`);
    });
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i], `progress went back: ${progress}`).toBeGreaterThanOrEqual(
        progress[i - 1] ?? 0,
      );
    }
    expect(progress.at(-1)).toBe(100);
    expect(track.duration).toBeCloseTo(sourceDuration, 0);
    ready = track;
  });

  test("has a master playlist with one measured variant per rung and aligned renditions", async () => {
    // As a player: anonymous, no cookies.
    const anonymous = createClient({ baseUrl: stack.apiUrl, kind: "user" });
    const master = await anonymous.GET("/api/v1/tracks/stream/{id}/hls/master.m3u8", {
      params: { path: { id: readyId() } },
      parseAs: "text",
    });
    expect(master.response.status).toBe(200);
    const variants = parseMaster(unwrap(master));
    expect(variants.map((v) => v.uri.split("/")[0])).toEqual(EXPECTED_RUNGS);
    for (const { attributes } of variants) {
      expect(Number(attributes.BANDWIDTH)).toBeGreaterThan(0);
      expect(Number(attributes["AVERAGE-BANDWIDTH"])).toBeGreaterThan(0);
      expect(attributes.CODECS).toBe("mp4a.40.2");
    }

    const playlists: MediaPlaylist[] = [];
    for (const variant of variants) {
      const media = await fetch(new URL(variant.uri, masterUrl()));
      expect(media.status, variant.uri).toBe(200);
      const playlist = parseMedia(await media.text());
      expect(playlist.endList).toBe(true);
      expect(playlist.segments.length).toBeGreaterThan(0);
      for (const segment of playlist.segments) {
        expect(segment.duration).toBeLessThanOrEqual(playlist.targetDuration + 0.5);
      }
      playlists.push(playlist);
    }
    const [first, ...others] = playlists;
    for (const other of others) expect(other.segments).toEqual(first?.segments);
  });

  test("plays every rendition in ffmpeg, for the source's whole duration", async () => {
    for (let index = 0; index < EXPECTED_RUNGS.length; index++) {
      const result = await decodeRendition(masterUrl(), index);
      expect(result.code, `rendition ${index}: ${result.stderr}`).toBe(0);
      expect(Math.abs(result.seconds - sourceDuration), `rendition ${index}`).toBeLessThanOrEqual(
        0.3,
      );
    }
  });

  describe("in hls.js in headless Chromium, from another origin", () => {
    let browser: Browser | undefined;
    let pages: Awaited<ReturnType<typeof startPageServer>> | undefined;
    afterAll(async () => {
      await browser?.close();
      await pages?.stop();
    });

    test("parses every level and plays past 8 s", async () => {
      pages = await startPageServer();
      browser = await launchChromium();
      const state = await playUntil(browser, pages.origin, masterUrl(), 8, 25_000);
      const seen = `hls.js events: ${state.events.join(" | ")}`;
      expect(state.supported, "MediaSource with AAC is not supported").toBe(true);
      expect(state.fatal, seen).toBeNull();
      expect(state.levels, seen).toBe(EXPECTED_RUNGS.length);
      expect(state.currentTime, seen).toBeGreaterThan(8);
    });

    test("plays the whole AAC file of a rung in <audio> and seeks in it by Range", async () => {
      pages ??= await startPageServer();
      browser ??= await launchChromium();
      const page = await browser.newPage();
      const ranges: string[] = [];
      page.on("request", (request) => {
        if (request.url().endsWith(".m4a")) ranges.push(request.headers().range ?? "none");
      });
      try {
        await page.goto(pages.origin);
        const url = `${stack.apiUrl}/api/v1/tracks/stream/${readyId()}/audio/192.m4a`;
        const state = await page.evaluate(async (src) => {
          const audio = new Audio(src);
          audio.muted = true;
          await audio.play();
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          const played = audio.currentTime;
          audio.currentTime = 15;
          await new Promise((resolve) => audio.addEventListener("seeked", resolve, { once: true }));
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          return { played, after: audio.currentTime, duration: audio.duration, error: audio.error };
        }, url);
        expect(state.error).toBeNull();
        expect(state.played).toBeGreaterThan(0.5);
        expect(state.after).toBeGreaterThanOrEqual(15);
        expect(Math.abs(state.duration - sourceDuration)).toBeLessThanOrEqual(0.3);
        expect(ranges.length).toBeGreaterThan(0);
        expect(ranges.every((range) => range.startsWith("bytes="))).toBe(true);
      } finally {
        await page.close();
      }
    });
  });
});
