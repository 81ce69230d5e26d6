// Links that unfurl and the embeddable player, end to end (issue 31, ADR 0027): a READY track's
// page fetched as a link-preview bot carries its tags, read by open-graph-scraper (a parser that
// link-preview services use); its oEmbed discovery link answers an iframe; a page of ANOTHER
// origin shows that iframe, and in Chromium the embed plays (the audio advances), signed out,
// with no cookie, and passes axe's WCAG checks.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import ogs from "open-graph-scraper";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { registerArtist, uploadTrack, waitUntilReady } from "./support/api.ts";
import { axeViolations } from "./support/player-page.ts";
import { webPlayerSuite } from "./support/web-player-suite.ts";

const web = webPlayerSuite("embed");
/** One READY track of a new artist (one conversion: the suite's seed makes two). */
const seeded = { title: "", artist: "", trackId: "" };

/** A site of its own on another origin (localhost, not the stack's 127.0.0.1): it shows `html`. */
let host: { server: Server; origin: string; html: string };

beforeAll(async () => {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(
      `<!doctype html><html lang="en"><head><title>A blog</title></head><body><h1>A post with a track</h1>${host.html}</body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  host = { server, origin: `http://localhost:${port}`, html: "" };
  const title = `Harbour Embed ${Date.now().toString(36)}`;
  const { apiUrl } = web.stack;
  const step = async <T>(name: string, work: Promise<T>): Promise<T> => {
    const started = Date.now();
    try {
      return await work;
    } catch (error) {
      throw new Error(`${name} failed: ${String(error)}\n${web.stack.logs()}`);
    } finally {
      console.log(`embed setup: ${name} in ${Date.now() - started} ms`);
    }
  };
  const artist = await step("sign-up", registerArtist(apiUrl));
  const { track } = await step("upload", uploadTrack(apiUrl, artist, web.mp3, title));
  await step("conversion", waitUntilReady(apiUrl, artist, track.id, 150_000));
  const me = (await artist.api.GET("/api/v1/artists/auth/me")).data;
  seeded.title = title;
  seeded.artist = me?.username ?? "";
  seeded.trackId = track.id;
}, 240_000);

afterAll(async () => {
  if (!host) return;
  host.server.closeAllConnections();
  await new Promise((resolve) => host.server.close(resolve));
});

describe("a track's link", () => {
  test("fetched as a link-preview bot, its page carries the track's tags", async () => {
    const { apiUrl } = web.stack;
    const page = `${apiUrl}/tracks/${seeded.trackId}`;
    const answer = await fetch(page, {
      headers: {
        "user-agent": "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      },
    });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    // The player still boots from the same page.
    expect(html).toContain('<div id="app"></div>');
    const { result, error } = await ogs({ html });
    expect(error).toBe(false);
    expect(result).toMatchObject({
      ogSiteName: "Edge Music",
      ogType: "music.song",
      ogTitle: seeded.title,
      ogUrl: page,
      twitterCard: "player",
      twitterTitle: seeded.title,
    });
    expect(result.ogDescription).toContain(`A track by ${seeded.artist}`);
    // An absolute URL of an image that is there.
    const [image] = result.ogImage ?? [];
    expect(image?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const picture = await fetch(image?.url ?? "");
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toMatch(/^image\//);
    await picture.arrayBuffer();
    const [player] = result.twitterPlayer ?? [];
    // The parser gives the sizes as the page writes them (text, whatever its types say).
    expect(player?.url).toBe(`${apiUrl}/embed/tracks/${seeded.trackId}`);
    expect([Number(player?.width), Number(player?.height)]).toEqual([480, 152]);
    const audio = result.ogAudioURL ?? result.ogAudio;
    expect(audio).toMatch(new RegExp(`^${apiUrl}/api/v1/tracks/stream/${seeded.trackId}/`));
    expect((await fetch(audio ?? "")).status).toBe(200);
  });

  test("a private track's page unfurls as the site's name alone", async () => {
    const { html } = await (async () => {
      const answer = await fetch(`${web.stack.apiUrl}/tracks/${crypto.randomUUID()}`);
      return { html: await answer.text() };
    })();
    const { result } = await ogs({ html });
    expect(result.ogTitle).toBe("Edge Music");
    expect(result.ogType).toBeUndefined();
    expect(result.ogImage ?? []).toEqual([]);
    expect(result.ogDescription).toBeUndefined();
    expect(result.twitterCard).toBeUndefined();
  });

  test("oEmbed answers an iframe that a site of another origin shows, and it plays", async () => {
    const { apiUrl } = web.stack;
    const html = await (await fetch(`${apiUrl}/tracks/${seeded.trackId}`)).text();
    // Discovery, as a consumer finds it: the page's oEmbed link.
    const link = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(html);
    expect(link).not.toBeNull();
    const discovery = (link?.[1] ?? "").replaceAll("&amp;", "&");
    const answer = await fetch(discovery);
    expect(answer.status).toBe(200);
    const oembed = (await answer.json()) as { type: string; html: string; width: number };
    expect(oembed.type).toBe("rich");
    host.html = oembed.html;

    const { page, problems } = await web.open(undefined, { bypassCSP: true, allow: [host.origin] });
    try {
      await page.goto(`${host.origin}/`);
      const iframe = page.locator("iframe");
      await iframe.waitFor();
      const frame = await (await iframe.elementHandle())?.contentFrame();
      if (!frame) throw new Error("the embed's frame did not load");
      await frame.waitForURL(`${apiUrl}/embed/tracks/${seeded.trackId}`);
      expect(new URL(frame.url()).origin).not.toBe(host.origin);
      await frame.getByRole("heading", { name: seeded.title }).waitFor({ timeout: 15_000 });
      await frame.getByRole("link", { name: seeded.artist }).waitFor();
      expect(
        await frame.getByRole("link", { name: "Open in Edge Music" }).getAttribute("href"),
      ).toBe(`/tracks/${seeded.trackId}`);
      expect(await axeViolations(frame)).toEqual([]);

      await frame.getByRole("button", { name: "Play" }).click();
      await expect
        .poll(
          () =>
            frame.evaluate(
              () =>
                (document.getElementById("embed-audio") as HTMLAudioElement | null)?.currentTime ??
                0,
            ),
          { timeout: 30_000 },
        )
        .toBeGreaterThan(2);
      await frame.getByRole("button", { name: "Pause" }).waitFor();
      // Seek over the waveform.
      await frame.locator("svg.wave path.bars").first().waitFor({ timeout: 10_000 });
      await frame.getByRole("slider", { name: "Seek" }).fill("10");
      await expect
        .poll(() =>
          frame.evaluate(
            () =>
              (document.getElementById("embed-audio") as HTMLAudioElement | null)?.currentTime ?? 0,
          ),
        )
        .toBeGreaterThanOrEqual(10);
      expect(await axeViolations(frame)).toEqual([]);
      // Signed out, and it made no cookie on its origin.
      expect(await page.context().cookies(apiUrl)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  test("the track's page offers Share: its link and the embed code with its size", async () => {
    const { apiUrl } = web.stack;
    const { page, context, problems } = await web.open();
    try {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: apiUrl });
      await page.goto(`${apiUrl}/tracks/${seeded.trackId}`);
      await page.getByRole("heading", { name: seeded.title }).waitFor();
      await page.getByRole("button", { name: "Share" }).click();
      const panel = page.getByRole("region", { name: `Share ${seeded.title}` });
      expect(await panel.getByLabel("Link").inputValue()).toBe(
        `${apiUrl}/tracks/${seeded.trackId}`,
      );
      const code = await panel.getByLabel("Embed code (480 × 152)").inputValue();
      expect(code).toContain(`src="${apiUrl}/embed/tracks/${seeded.trackId}"`);
      expect(code).toContain('width="480" height="152"');
      await panel.getByRole("button", { name: "Copy embed code" }).click();
      await panel.getByText("Embed code copied.").waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
      // A visitor owns nothing here: no unlisted link is offered.
      expect(await panel.getByRole("button", { name: "Copy unlisted link" }).count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
