import { describe, expect, it } from "vitest";
import { app, Client } from "../support/auth.ts";
import { send } from "../support/env.ts";
import { expectProblem } from "../support/problem.ts";
import {
  API,
  FRONTEND,
  publicPlaylist,
  publicTrack,
  setAlbum,
  setPlaylist,
  setTrack,
  storePng,
} from "./support.ts";

const oembed = (query: Record<string, string>) =>
  new Client().get(`/api/v1/oembed?${new URLSearchParams(query)}`);

interface OEmbed {
  type: string;
  version: string;
  html: string;
  width: number;
  height: number;
  title: string;
  author_name?: string;
  author_url?: string;
  provider_name: string;
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
}

const iframeSrc = (html: string) => /<iframe src="([^"]+)"/.exec(html)?.[1];

describe("GET /api/v1/oembed's thumbnail", () => {
  it("is the item's own picture with the size its header says, or left out when unknown", async () => {
    const { track } = await publicTrack();
    const cover = `/static/covers/${crypto.randomUUID()}.png`;
    await storePng(cover, 1000, 1000);
    await setTrack(track.id, { cover });
    const sized = (await (
      await oembed({ url: `${FRONTEND}/tracks/${track.id}` })
    ).json()) as OEmbed;
    expect(sized).toMatchObject({
      thumbnail_url: `${API}${cover}`,
      thumbnail_width: 1000,
      thumbnail_height: 1000,
    });
    // A picture whose size cannot be read (here: not in storage) gives no thumbnail at all.
    const other = await publicTrack();
    await setTrack(other.track.id, { cover: `/static/covers/${crypto.randomUUID()}.jpg` });
    const unsized = (await (
      await oembed({ url: `${FRONTEND}/tracks/${other.track.id}` })
    ).json()) as OEmbed;
    expect(unsized.thumbnail_url).toBeUndefined();
    expect(unsized.thumbnail_width).toBeUndefined();
  });
});

describe("GET /api/v1/oembed", () => {
  it("answers a rich oEmbed 1.0 document whose html is an iframe of the embed page", async () => {
    const { artist, track } = await publicTrack();
    const response = await oembed({ url: `${FRONTEND}/tracks/${track.id}`, format: "json" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as OEmbed;
    expect(body).toMatchObject({
      type: "rich",
      version: "1.0",
      title: track.title,
      author_name: artist.displayName,
      author_url: `${FRONTEND}/artists/${artist.id}`,
      provider_name: "Edge Music",
      thumbnail_url: `${API}/og-image.png`,
      thumbnail_width: 1200,
      thumbnail_height: 630,
      width: 480,
      height: 152,
    });
    expect(iframeSrc(body.html)).toBe(`${API}/embed/tracks/${track.id}`);
    expect(body.html).toContain('width="480" height="152"');
    expect(body.html).toContain(`title="${track.title} by ${artist.displayName} on Edge Music"`);
    // The iframe's page is one any site may frame.
    const page = await send(app, new URL(iframeSrc(body.html) ?? "").pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(page.headers.get("x-frame-options")).toBeNull();
    await page.text();
  });

  it("takes the embed page's URL, this API's origin, the other scheme, and albums and playlists", async () => {
    const { album, track } = await publicTrack();
    const embed = await oembed({ url: `${API}/embed/tracks/${track.id}` });
    expect(embed.status).toBe(200);
    const other = await oembed({ url: `https://localhost:5173/tracks/${track.id.toUpperCase()}` });
    expect(iframeSrc(((await other.json()) as OEmbed).html)).toBe(
      `${API}/embed/tracks/${track.id}`,
    );
    const albumDoc = (await (
      await oembed({ url: `${FRONTEND}/albums/${album.id}` })
    ).json()) as OEmbed;
    expect(albumDoc).toMatchObject({ title: album.title, width: 480, height: 380 });
    expect(iframeSrc(albumDoc.html)).toBe(`${API}/embed/albums/${album.id}`);
    const { playlist } = await publicPlaylist([track.id], null);
    const list = (await (
      await oembed({ url: `${FRONTEND}/playlists/${playlist.id}` })
    ).json()) as OEmbed;
    expect(iframeSrc(list.html)).toBe(`${API}/embed/playlists/${playlist.id}`);
    // An owner without a display name is not named (their username never is).
    expect(list.author_name).toBeUndefined();
    expect(list.author_url).toBeUndefined();
  });

  it("keeps within maxwidth and maxheight, in the document and the iframe alike", async () => {
    const { track } = await publicTrack();
    const url = `${FRONTEND}/tracks/${track.id}`;
    const small = (await (
      await oembed({ url, maxwidth: "300", maxheight: "100" })
    ).json()) as OEmbed;
    expect([small.width, small.height]).toEqual([300, 100]);
    expect(small.html).toContain('width="300" height="100"');
    // A larger allowance does not stretch the player past its size.
    const large = (await (
      await oembed({ url, maxwidth: "2000", maxheight: "900" })
    ).json()) as OEmbed;
    expect([large.width, large.height]).toEqual([480, 152]);
    const narrow = (await (await oembed({ url, maxwidth: "320" })).json()) as OEmbed;
    expect([narrow.width, narrow.height]).toEqual([320, 152]);
  });

  it("400 without a url, or with one that is not an http(s) URL, or a bad size", async () => {
    await expectProblem(await new Client().get("/api/v1/oembed"), 400, "VALIDATION_FAILED");
    for (const url of ["not a url", "ftp://localhost:5173/tracks/x", "javascript:alert(1)"]) {
      await expectProblem(await oembed({ url }), 400, "VALIDATION_FAILED");
    }
    const url = `${FRONTEND}/tracks/${crypto.randomUUID()}`;
    for (const maxwidth of ["0", "-5", "wide", "1.5"]) {
      await expectProblem(await oembed({ url, maxwidth }), 400, "VALIDATION_FAILED");
    }
    await expectProblem(await oembed({ url, maxheight: "0" }), 400, "VALIDATION_FAILED");
  });

  it("404 for a URL that is not ours, or names nothing embeddable", async () => {
    const { artist, track } = await publicTrack();
    for (const url of [
      `https://elsewhere.example/tracks/${track.id}`,
      `http://localhost:9999/tracks/${track.id}`,
      `${FRONTEND}/artists/${artist.id}`,
      `${FRONTEND}/tracks/not-an-id`,
      `${FRONTEND}/search?q=${track.id}`,
      `${FRONTEND}/tracks/${track.id}/more`,
      `${FRONTEND}/`,
    ]) {
      await expectProblem(await oembed({ url }), 404, "NOT_FOUND");
    }
  });

  it("404 for an item that is missing, private, unlisted or not READY, alike", async () => {
    const privateOne = await publicTrack();
    await setTrack(privateOne.track.id, { visibility: "private" });
    const unlisted = await publicTrack();
    await setTrack(unlisted.track.id, { visibility: "unlisted" });
    const converting = await publicTrack();
    await setTrack(converting.track.id, { processingStatus: "PROCESSING" });
    const hiddenAlbum = await publicTrack();
    await setAlbum(hiddenAlbum.album.id, { visibility: "private" });
    const { playlist } = await publicPlaylist([]);
    await setPlaylist(playlist.id, { visibility: "unlisted", isPublic: false });
    for (const path of [
      `/tracks/${crypto.randomUUID()}`,
      `/tracks/${privateOne.track.id}`,
      `/tracks/${unlisted.track.id}`,
      `/tracks/${converting.track.id}`,
      `/albums/${hiddenAlbum.album.id}`,
      `/playlists/${playlist.id}`,
    ]) {
      const response = await oembed({ url: `${FRONTEND}${path}` });
      const body = await expectProblem(response, 404, "NOT_FOUND");
      expect(JSON.stringify(body)).not.toContain(privateOne.track.title);
    }
  });

  it("501 for format=xml (or any format but json), as oEmbed allows", async () => {
    const { track } = await publicTrack();
    const url = `${FRONTEND}/tracks/${track.id}`;
    await expectProblem(await oembed({ url, format: "xml" }), 501, "NOT_IMPLEMENTED");
    await expectProblem(await oembed({ url, format: "yaml" }), 501, "NOT_IMPLEMENTED");
    expect((await oembed({ url, format: "json" })).status).toBe(200);
  });

  it("is kept at the edge like the public reads", async () => {
    const { track } = await publicTrack();
    const url = `${FRONTEND}/tracks/${track.id}`;
    expect((await oembed({ url })).headers.get("x-edge-cache")).toBe("miss");
    expect((await oembed({ url })).headers.get("x-edge-cache")).toBe("hit");
  });
});
