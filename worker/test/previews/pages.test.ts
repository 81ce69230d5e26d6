import { EMBED_CSP, PAGE_CSP } from "@edge-music/contracts/page-headers";
import { describe, expect, it } from "vitest";
import { app, Client, registerAccount } from "../support/auth.ts";
import { send } from "../support/env.ts";
import { insertTrack } from "../support/factories.ts";
import { countingEnv, tripsSoFar } from "../support/round-trips.ts";
import {
  API,
  FRONTEND,
  headOf,
  publicPlaylist,
  publicTrack,
  setAlbum,
  setPlaylist,
  setTrack,
  storePng,
} from "./support.ts";

/** As a link-preview bot asks: no cookie, a bot's user agent. */
const bot = (path: string, env = countingEnv) =>
  send(app, path, { headers: { "user-agent": "facebookexternalhit/1.1" } }, env);

describe("a public item's page carries its link preview", () => {
  it("a track: its title, description, canonical URL, Open Graph, Twitter's player card and oEmbed", async () => {
    const { artist, album, track } = await publicTrack();
    const response = await bot(`/tracks/${track.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.clone().text();
    // The player still boots from the page: its root and its entry script are there.
    expect(html).toContain('<div id="app"></div>');
    expect(html).toMatch(/<script type="module"[^>]+src="\/assets\/index-[^"]+\.js"/);
    const head = await headOf(response);
    expect(head.title).toBe(`${track.title} · ${artist.displayName} · Edge Music`);
    const url = `${FRONTEND}/tracks/${track.id}`;
    expect(head.links.get("canonical")?.href).toBe(url);
    expect(head.description).toBe(`A track by ${artist.displayName} from ${album.title} · 3:36`);
    expect(Object.fromEntries(head.meta)).toMatchObject({
      "og:site_name": "Edge Music",
      "og:type": "music.song",
      "og:url": url,
      "og:title": track.title,
      "og:description": head.description,
      // No picture of its own, its album's or its artist's: the site's, with its real size.
      "og:image": `${API}/og-image.png`,
      "og:image:width": "1200",
      "og:image:height": "630",
      "og:audio": `${API}/api/v1/tracks/stream/${track.id}/hls/master.m3u8`,
      "og:audio:type": "application/vnd.apple.mpegurl",
      "music:duration": "216",
      "music:musician": `${FRONTEND}/artists/${artist.id}`,
      "twitter:card": "player",
      "twitter:title": track.title,
      "twitter:image": `${API}/og-image.png`,
      "twitter:player": `${API}/embed/tracks/${track.id}`,
      "twitter:player:width": "480",
      "twitter:player:height": "152",
    });
    const oembed = head.links.get("alternate");
    expect(oembed?.type).toBe("application/json+oembed");
    const discovered = new URL(oembed?.href ?? "");
    expect(`${discovered.origin}${discovered.pathname}`).toBe(`${API}/api/v1/oembed`);
    expect(discovered.searchParams.get("url")).toBe(url);
    expect(discovered.searchParams.get("format")).toBe("json");
  });

  it("a track's picture: its own cover, else its album's, as an absolute URL", async () => {
    const { album, track } = await publicTrack();
    await setAlbum(album.id, { cover: "/static/covers/0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192.jpg" });
    const fromAlbum = await headOf(await bot(`/tracks/${track.id}`));
    expect(fromAlbum.meta.get("og:image")).toBe(
      `${API}/static/covers/0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192.jpg`,
    );
    // Its size is unknown (not in storage here): no size is claimed for it.
    expect(fromAlbum.meta.has("og:image:width")).toBe(false);
    const other = await publicTrack();
    const cover = `/static/covers/${crypto.randomUUID()}.png`;
    await storePng(cover, 640, 480);
    await setTrack(other.track.id, { cover });
    const own = await headOf(await bot(`/tracks/${other.track.id}`));
    expect(own.meta.get("og:image")).toBe(`${API}${cover}`);
    // Stored: its size, read from its header.
    expect(own.meta.get("og:image:width")).toBe("640");
    expect(own.meta.get("og:image:height")).toBe("480");
  });

  it("an album: music.album with its artist, year and number of public tracks", async () => {
    const { artist, album } = await publicTrack();
    await insertTrack(artist.id, { albumId: album.id, visibility: "private" });
    await setAlbum(album.id, { releasedAt: "2024-05-17", description: "One night." });
    const head = await headOf(await bot(`/albums/${album.id}`));
    expect(head.title).toBe(`${album.title} · ${artist.displayName} · Edge Music`);
    expect(head.meta.get("og:type")).toBe("music.album");
    expect(head.meta.get("og:url")).toBe(`${FRONTEND}/albums/${album.id}`);
    expect(head.description).toBe(`An album by ${artist.displayName} · 2024 · 1 track. One night.`);
    expect(head.meta.get("twitter:player")).toBe(`${API}/embed/albums/${album.id}`);
    expect(head.meta.get("twitter:player:height")).toBe("380");
    expect(head.meta.has("og:audio")).toBe(false);
  });

  it("a playlist: music.playlist by its owner's display name, never their username", async () => {
    const { track } = await publicTrack();
    const { playlist, user } = await publicPlaylist([track.id], "Mia");
    const head = await headOf(await bot(`/playlists/${playlist.id}`));
    expect(head.meta.get("og:type")).toBe("music.playlist");
    expect(head.title).toBe(`${playlist.title} · Mia · Edge Music`);
    expect(head.description).toBe("A playlist by Mia · 1 track");
    const unnamed = await publicPlaylist([track.id], null);
    const page = await bot(`/playlists/${unnamed.playlist.id}`);
    const text = await page.clone().text();
    expect(text).not.toContain(unnamed.user.username);
    expect(text).not.toContain(user.username);
    expect((await headOf(page)).description).toBe("A playlist · 1 track");
  });

  it("an artist: a profile with a summary card, no player", async () => {
    const { artist } = await publicTrack();
    const head = await headOf(await bot(`/artists/${artist.id}`));
    expect(head.title).toBe(`${artist.displayName} · Edge Music`);
    expect(head.meta.get("og:type")).toBe("profile");
    expect(head.meta.get("twitter:card")).toBe("summary");
    expect(head.meta.has("twitter:player")).toBe(false);
    expect(head.links.has("alternate")).toBe(false);
    expect(head.description).toBe("Artist · 1 track. Synths by the harbour.");
  });
});

describe("anything that is not public unfurls as the site's name alone", () => {
  const bare = async (path: string) => {
    const response = await bot(path);
    expect(response.status).toBe(200);
    const html = await response.clone().text();
    expect(html).toContain('<div id="app"></div>');
    const head = await headOf(response);
    expect(head.title).toBe("Edge Music");
    expect(head.description).toBeNull();
    expect([...head.meta.keys()].filter((k) => /^(og|twitter|music):/.test(k))).toEqual([]);
    expect(head.links.has("canonical")).toBe(false);
    return html;
  };

  it("a private, an unlisted (even with its key), an unfinished and a missing track", async () => {
    const privateOne = await publicTrack();
    await setTrack(privateOne.track.id, { visibility: "private" });
    expect(await bare(`/tracks/${privateOne.track.id}`)).not.toContain(privateOne.track.title);
    const unlisted = await publicTrack();
    await setTrack(unlisted.track.id, { visibility: "unlisted" });
    expect(await bare(`/tracks/${unlisted.track.id}`)).not.toContain(unlisted.track.title);
    expect(await bare(`/tracks/${unlisted.track.id}?key=${unlisted.track.shareKey}`)).not.toContain(
      unlisted.track.title,
    );
    const converting = await publicTrack();
    await setTrack(converting.track.id, { processingStatus: "PROCESSING" });
    await bare(`/tracks/${converting.track.id}`);
    await bare(`/tracks/${crypto.randomUUID()}`);
  });

  it("private and unlisted albums and playlists; unknown artists; paths that name no item", async () => {
    const { album, track } = await publicTrack();
    await setAlbum(album.id, { visibility: "unlisted" });
    expect(await bare(`/albums/${album.id}`)).not.toContain(album.title);
    const { playlist } = await publicPlaylist([track.id]);
    await setPlaylist(playlist.id, { visibility: "private", isPublic: false });
    expect(await bare(`/playlists/${playlist.id}`)).not.toContain(playlist.title);
    await bare(`/artists/${crypto.randomUUID()}`);
    await bare("/tracks/not-an-id");
    await bare(`/tracks/${track.id}/more`);
  });

  it("a track on an album made private shows neither the album's title nor its cover", async () => {
    const { album, track } = await publicTrack();
    await setAlbum(album.id, {
      visibility: "private",
      cover: "/static/covers/2195f3a4-8c1e-7d2a-9b3c-4d5e6f708192.jpg",
    });
    const response = await bot(`/tracks/${track.id}`);
    const html = await response.clone().text();
    expect(html).not.toContain(album.title);
    expect(html).not.toContain("2195f3a4");
    expect((await headOf(response)).meta.get("og:title")).toBe(track.title);
  });
});

describe("a page's preview costs one round trip, then none from the edge", () => {
  it("one round trip on a miss; a repeat is an edge hit with none", async () => {
    const { track } = await publicTrack();
    const path = `/tracks/${track.id}`;
    const before = await tripsSoFar();
    const first = await bot(path);
    await first.text();
    expect(first.headers.get("x-edge-cache")).toBe("miss");
    expect((await tripsSoFar()) - before).toBe(1);
    const again = await bot(path);
    expect(again.headers.get("x-edge-cache")).toBe("hit");
    expect((await headOf(again)).meta.get("og:title")).toBe(track.title);
    expect((await tripsSoFar()) - before).toBe(1);
    // The same copy for a signed-in caller: a preview holds nothing of anyone.
    const listener = await registerAccount("user");
    const signedIn = await listener.client.get(path);
    expect(signedIn.headers.get("x-edge-cache")).toBe("hit");
    expect(signedIn.headers.get("cache-control")).toBe(
      "public, max-age=0, s-maxage=15, stale-while-revalidate=45",
    );
  });

  it("a page that names no item costs none", async () => {
    const before = await tripsSoFar();
    await (await bot("/tracks/not-an-id")).text();
    await (await bot("/embed/tracks/0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192")).text();
    expect((await tripsSoFar()) - before).toBe(0);
  });
});

describe("the pages' security headers", () => {
  const headers = (response: Response) => {
    const all: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      all[name] = value;
    });
    return all;
  };

  it("an item's page: the static pages' headers, never framed", async () => {
    const { track } = await publicTrack();
    const page = headers(await bot(`/tracks/${track.id}`));
    expect(page["content-security-policy"]).toBe(PAGE_CSP);
    expect(PAGE_CSP).toContain("frame-ancestors 'none'");
    expect(page).toMatchObject({
      "x-content-type-options": "nosniff",
      "referrer-policy": "same-origin",
      "permissions-policy": "camera=(), microphone=(), geolocation=()",
    });
    expect(page["set-cookie"]).toBeUndefined();
  });

  it("the embed: framed by any site, no X-Frame-Options, no cookie; its CSP differs only in frame-ancestors", async () => {
    const { track } = await publicTrack();
    const listener = await registerAccount("user");
    const response = await listener.client.get(`/embed/tracks/${track.id}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<main id="embed"');
    expect(html).toMatch(/src="\/assets\/embed-[^"]+\.js"/);
    const embed = headers(response);
    expect(embed["x-frame-options"]).toBeUndefined();
    expect(embed["set-cookie"]).toBeUndefined();
    expect(embed["content-security-policy"]).toBe(EMBED_CSP);
    expect(EMBED_CSP).toContain("frame-ancestors *");
    expect(EMBED_CSP.replace("frame-ancestors *", "")).toBe(
      PAGE_CSP.replace("frame-ancestors 'none'", ""),
    );
    expect(embed["referrer-policy"]).toBe("same-origin");
    // The API keeps its own headers, framing refused.
    const api = await new Client().get(`/api/v1/tracks/${track.id}`);
    expect(api.headers.get("x-frame-options")).toBe("SAMEORIGIN");
  });

  it("an embed path that names nothing embeddable answers 404 with the same page", async () => {
    for (const path of ["/embed/artists/0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192", "/embed/tracks/x"]) {
      const response = await bot(path);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-security-policy")).toBe(EMBED_CSP);
      await response.text();
    }
  });
});
