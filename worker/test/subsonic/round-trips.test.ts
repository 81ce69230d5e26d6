import { describe, expect, it } from "vitest";
import { METHOD_NAMES } from "../../src/features/subsonic/service.ts";
import { forgetAll } from "../../src/features/subsonic/verified.ts";
import { countingEnv, tripsSoFar } from "../support/round-trips.ts";
import { appAccount, call, catalogue, tokenAuth, withOpus } from "./support.ts";

/**
 * The database round trips of every Subsonic method, with each form of credential (issue 30:
 * one per call, the credential check included). The check rides in the method's one batch, as
 * the session check does in the REST API (ADR 0010, ADR 0024). Measured with an app password
 * already used (its `lastUsedAt` is written at most every 5 minutes, after the answer).
 */
const fixtures = async () => {
  const account = await appAccount();
  const { artist, album, first, single } = await catalogue();
  await withOpus(first.id, [128]);
  const playlist = await account.client.post("/api/v1/playlists", { title: "P", isPublic: false });
  const { id: playlistId } = (await playlist.json()) as { id: string };
  // Warm: the first use writes lastUsedAt (after the answer: one more round trip, once).
  await call("ping", { apiKey: account.appPassword });
  const args: Record<string, Record<string, string>> = {
    getArtist: { id: artist.id },
    getAlbum: { id: album.id },
    getSong: { id: first.id },
    stream: { id: first.id },
    getCoverArt: { id: `tr-${single.id}` },
    scrobble: { id: first.id },
    star: { id: first.id },
    setRating: { id: first.id, rating: "3" },
    search3: { query: "" },
    unstar: { id: first.id },
    getMusicDirectory: { id: artist.id },
    download: { id: first.id },
    getAlbumList2: { type: "newest" },
    getPlaylist: { id: playlistId },
    getArtistInfo2: { id: artist.id },
    getAlbumInfo2: { id: album.id },
    getSimilarSongs2: { id: artist.id },
    getAlbumList: { type: "newest" },
    getArtistInfo: { id: artist.id },
    getAlbumInfo: { id: album.id },
    getSimilarSongs: { id: artist.id },
    getSongsByGenre: { genre: "Rock" },
    getTopSongs: { artist: artist.username },
    savePlayQueue: { id: first.id, current: first.id, position: "1000" },
    createPlaylist: { name: "New" },
    updatePlaylist: { playlistId, name: "Renamed" },
    deletePlaylist: { id: playlistId },
  };
  return { account, args };
};

/**
 * The round trips of a method: one, the credential check included, writes too once the isolate
 * has proved the credential (ADR 0029; the fixtures' ping did). The protocol's open method: none.
 */
const BUDGET: Record<string, number> = { getOpenSubsonicExtensions: 0 };

/** The methods that write: what they cost depends on whether the credential is remembered. */
const WRITES = [
  "scrobble",
  "star",
  "setRating",
  "unstar",
  "savePlayQueue",
  "createPlaylist",
  "updatePlaylist",
  "deletePlaylist",
];

async function measure(method: string, params: Record<string, string | undefined>) {
  const before = await tripsSoFar();
  const answer = await call(method, params, { env: countingEnv });
  await answer.arrayBuffer();
  return (await tripsSoFar()) - before;
}

describe("database round trips of every Subsonic method", () => {
  it.each(METHOD_NAMES)("%s", async (method) => {
    const { account, args } = await fixtures();
    const budget = BUDGET[method] ?? 1;
    const forms = [
      { apiKey: account.appPassword },
      await tokenAuth(account.username, account.appPassword),
      { u: account.username, p: account.appPassword },
    ];
    for (const form of forms) {
      expect(await measure(method, { ...form, ...args[method] })).toBe(budget);
    }
  });

  it.each(WRITES)(
    "%s with a credential not proved in this isolate: the check, then the write",
    async (method) => {
      const { account, args } = await fixtures();
      const forms = [
        { apiKey: account.appPassword },
        await tokenAuth(account.username, account.appPassword),
        { u: account.username, p: account.appPassword },
      ];
      for (const form of forms) {
        forgetAll();
        expect(await measure(method, { ...form, ...args[method] })).toBe(2);
        // Proved now: the next write is one round trip (a deleted playlist's: 70, in one too).
        expect(await measure(method, { ...form, ...args[method] })).toBe(1);
      }
    },
  );

  it("a read is one round trip whether the credential is remembered or not", async () => {
    const { account, args } = await fixtures();
    forgetAll();
    expect(await measure("getAlbum", { apiKey: account.appPassword, ...args.getAlbum })).toBe(1);
    expect(await measure("getAlbum", { apiKey: account.appPassword, ...args.getAlbum })).toBe(1);
  });

  it("a failed credential: the check, then its failure counted", async () => {
    const account = await appAccount();
    expect(await measure("ping", { u: account.username, p: "wrong" })).toBe(2);
  });
});
