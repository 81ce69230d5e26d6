import { playlistTracks } from "@edge-music/db";
import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../support/auth.ts";
import { insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";
import {
  addTracks,
  BASE,
  createPlaylist,
  expectJson,
  idsOf,
  type Playlist,
  readyTracks,
} from "./support.ts";

const anyone = () => new Client();
const missingId = () => crypto.randomUUID();
describe("GET /playlists/:id", () => {
  it("shows a public playlist to everyone, signed in or not", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client, { isPublic: true });
    const other = await registerAccount("user");
    const artist = await registerAccount("artist");
    for (const client of [anyone(), other.client, artist.client]) {
      const seen = await expectJson<Playlist>(await client.get(`${BASE}/${playlist.id}`), 200);
      expect(seen.id).toBe(playlist.id);
    }
  });

  it("hides a private playlist (404) from everyone but its owner", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    expect((await owner.client.get(`${BASE}/${playlist.id}`)).status).toBe(200);
    const other = await registerAccount("user");
    const artist = await registerAccount("artist");
    for (const client of [anyone(), other.client, artist.client]) {
      await expectProblem(await client.get(`${BASE}/${playlist.id}`), 404, "NOT_FOUND");
    }
  });

  it("404 for an unknown id, 400 for an id that is not a UUID", async () => {
    await expectProblem(await anyone().get(`${BASE}/${missingId()}`), 404, "NOT_FOUND");
    await expectProblem(await anyone().get(`${BASE}/not-a-uuid`), 400, "VALIDATION_FAILED");
  });

  it("401 for an access cookie that is present but invalid", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client, { isPublic: true });
    const response = await anyone().get(`${BASE}/${playlist.id}`, { cookie: "access_token=junk" });
    await expectProblem(response, 401, "UNAUTHORIZED");
  });
});

describe("track visibility", () => {
  it("lists and counts only READY tracks, for the owner too", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const [ready] = await readyTracks(1);
    const artist = await insertArtist();
    const failed = await insertTrack(artist.id, { processingStatus: "FAILED" });
    await addTracks(owner.client, playlist.id, [ready?.id ?? ""]);
    // A track can only be added while READY; an entry of another state is made directly.
    await withDb((db) =>
      db
        .insert(playlistTracks)
        .values({ playlistId: playlist.id, trackId: failed.id, position: 5 }),
    );
    const seen = await expectJson<Playlist>(await owner.client.get(`${BASE}/${playlist.id}`), 200);
    expect(idsOf(seen)).toEqual([ready?.id]);
    expect(seen._count.tracks).toBe(1);
    // The owner can still remove it.
    expect((await owner.client.delete(`${BASE}/${playlist.id}/tracks/${failed.id}`)).status).toBe(
      200,
    );
  });
});
