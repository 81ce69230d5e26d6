import { playlistTracks } from "@edge-music/db";
import { describe, expect, it } from "vitest";
import { addTracks, createPlaylist } from "../playlists/support.ts";
import { authPath, Client } from "../support/auth.ts";
import { withDb } from "../support/factories.ts";
import { type Answer, appAccount, call, catalogue, errorCode, json } from "./support.ts";

const f = "json";

describe("Subsonic playlists: the REST API's playlists", () => {
  it("getPlaylists: the listener's own; getPlaylist: its READY songs in order", async () => {
    const { first, second, converting } = await catalogue();
    const owner = await appAccount();
    const mine = await createPlaylist(owner.client, { title: "Mine", isPublic: false });
    expect((await addTracks(owner.client, mine.id, [second.id, first.id])).status).toBeLessThan(
      300,
    );
    // A track that stopped being READY stays in the playlist's rows, never in its answer.
    await withDb((db) =>
      db
        .insert(playlistTracks)
        .values({ playlistId: mine.id, trackId: converting.id, position: 99 }),
    );
    const auth = { apiKey: owner.appPassword, f };

    const listed = (await json(await call("getPlaylists", auth))).playlists.playlist as Answer[];
    expect(listed).toEqual([
      expect.objectContaining({
        id: mine.id,
        name: "Mine",
        owner: owner.username,
        public: false,
        songCount: 2,
      }),
    ]);
    const full = (await json(await call("getPlaylist", { ...auth, id: mine.id }))).playlist;
    expect(full).toMatchObject({ id: mine.id, songCount: 2 });
    expect((full.entry as Answer[]).map((song) => song.id)).toEqual([second.id, first.id]);
    expect(await errorCode(await call("getPlaylists", { ...auth, username: "someone" }))).toBe(50);
  });

  it("another listener's private playlist answers 70, a public one is readable", async () => {
    const owner = await appAccount();
    const hidden = await createPlaylist(owner.client, { title: "Hidden", isPublic: false });
    const shown = await createPlaylist(owner.client, { title: "Shown", isPublic: true });
    const other = await appAccount();
    const auth = { apiKey: other.appPassword, f };
    expect(await errorCode(await call("getPlaylist", { ...auth, id: hidden.id }))).toBe(70);
    expect(
      (await json(await call("getPlaylist", { ...auth, id: shown.id }))).playlist,
    ).toMatchObject({
      id: shown.id,
      owner: owner.username,
      public: true,
    });
    expect((await json(await call("getPlaylists", auth))).playlists).toEqual({ playlist: [] });
    expect(await errorCode(await call("getPlaylist", { ...auth, id: crypto.randomUUID() }))).toBe(
      70,
    );
  });

  it("an artist account with a listener's username sees none of that listener's playlists", async () => {
    const listener = await appAccount();
    const hidden = await createPlaylist(listener.client, { title: "Hidden", isPublic: false });
    // Usernames are unique per account kind: an artist may hold a listener's.
    const client = new Client();
    const made = await client.post(`${authPath("artist")}/register`, {
      username: listener.username,
      email: `a-${listener.email}`,
      password: listener.password,
    });
    expect(made.status).toBe(201);
    const key = await client.post("/api/v1/artists/me/app-passwords", { name: "App" });
    const artist = ((await key.json()) as { password: string }).password;
    for (const auth of [{ apiKey: artist }, { u: listener.username, p: artist }]) {
      const body = await json(await call("getPlaylists", { ...auth, f }));
      expect(body.playlists).toEqual({ playlist: [] });
      expect(await errorCode(await call("getPlaylist", { ...auth, f, id: hidden.id }))).toBe(70);
    }
  });
});
