import SubsonicAPI from "subsonic-api";
import { describe, expect, it } from "vitest";
import { historyOf } from "../history/support.ts";
import { app, uniqueIp } from "../support/auth.ts";
import { textOf } from "../support/body.ts";
import { send } from "../support/env.ts";
import { type AppAccount, appAccount, catalogue, withAac, withOpus } from "./support.ts";

/**
 * `subsonic-api`, a client library app authors use, talking to the Worker as an app would: its
 * requests go to the Worker under test (its own fetch), with its own salts and tokens.
 */
function client(auth: { username: string; password: string } | { apiKey: string }, post = false) {
  const ip = uniqueIp();
  const headers: Record<string, string> = {};
  const api = new SubsonicAPI({
    url: "http://localhost",
    auth,
    post,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      request.headers.set("cf-connecting-ip", ip);
      for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
      return await send(app, request);
    }) as typeof fetch,
  });
  /** Headers of the app's player for the next calls (a Range, as a seek sends it). */
  return Object.assign(api, { headers });
}

describe("a Subsonic client library against the Worker", () => {
  let account: AppAccount;

  it.each([
    ["an app password (token + salt)", false],
    ["an app password, form POST", true],
    ["an API key", false],
  ] as const)(
    "browses, streams with a range and a lower bitrate, and scrobbles with %s",
    async (how, post) => {
      account = await appAccount();
      const { artist, album, first } = await catalogue();
      await withOpus(first.id, [128, 192]);
      await withAac(first.id, [128, 192]);
      const api = client(
        how.includes("API key")
          ? { apiKey: account.appPassword }
          : { username: account.username, password: account.appPassword },
        post,
      );

      const pong = await api.ping();
      expect(pong).toMatchObject({ status: "ok", openSubsonic: true, type: "edge-music" });

      const { artists } = await api.getArtists();
      const listed = artists.index?.flatMap((index) => index.artist ?? []) ?? [];
      expect(listed.map((a) => a.id)).toContain(artist.id);

      const { artist: found } = await api.getArtist({ id: artist.id });
      expect(found.album?.map((a) => a.id)).toContain(album.id);

      const { album: full } = await api.getAlbum({ id: album.id });
      expect(full.song?.[0]?.id).toBe(first.id);

      const { song } = await api.getSong({ id: first.id });
      expect(song.title).toBe(first.title);

      const low = await api.stream({ id: first.id, maxBitRate: 128 });
      expect(low.status).toBe(200);
      expect(low.headers.get("content-type")).toBe("audio/mp4");
      expect((await textOf(low)).startsWith("M4A-128-")).toBe(true);
      api.headers.range = "bytes=4-6";
      const seek = await api.stream({ id: first.id });
      expect(seek.status).toBe(206);
      expect(await textOf(seek)).toBe("192");
      delete api.headers.range;
      const opus = await api.stream({ id: first.id, format: "ogg" });
      expect((await textOf(opus)).startsWith("OggS-192-")).toBe(true);

      await api.scrobble({ id: first.id, submission: true });
      const history = await historyOf(account.client);
      expect(history.map((entry) => entry.track.id)).toEqual([first.id]);
    },
  );

  it("sees a wrong password as the protocol's error 40", async () => {
    const someone = await appAccount();
    const api = client({ username: someone.username, password: "not-it" });
    const answer = await api.ping();
    expect(answer).toMatchObject({ status: "failed", error: { code: 40 } });
  });
});
