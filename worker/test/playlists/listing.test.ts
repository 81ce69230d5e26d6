import { playlistTracks } from "@edge-music/db";
import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../support/auth.ts";
import { insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { BAD_PAGE_QUERIES } from "../support/paging.ts";
import { expectProblem } from "../support/problem.ts";
import {
  addTracks,
  BASE,
  createPlaylist,
  expectJson,
  type OwnPlaylist,
  type PlaylistSummary,
  readyTracks,
} from "./support.ts";

describe("GET /playlists", () => {
  it("lists public playlists only, newest update first, with counts", async () => {
    const owner = await registerAccount("user");
    const liker = await registerAccount("user");
    const older = await createPlaylist(owner.client, { isPublic: true });
    const newer = await createPlaylist(owner.client, { isPublic: true });
    const hidden = await createPlaylist(owner.client);
    const tracks = await readyTracks(2);
    await addTracks(
      owner.client,
      older.id,
      tracks.map((t) => t.id),
    ); // `older` is now the newest update
    expect((await liker.client.post(`${BASE}/${older.id}/like`)).status).toBe(200);

    const list = await expectJson<PlaylistSummary[]>(
      await new Client().get(`${BASE}?limit=100`),
      200,
    );
    expect(list.length).toBeLessThanOrEqual(100);
    expect(list.every((p) => p.isPublic)).toBe(true);
    const updates = list.map((p) => Date.parse(p.updatedAt));
    expect(updates).toEqual([...updates].sort((a, b) => b - a));
    const ids = list.map((p) => p.id);
    expect(ids).not.toContain(hidden.id);
    expect(ids.indexOf(older.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(older.id)).toBeLessThan(ids.indexOf(newer.id));
    const item = list.find((p) => p.id === older.id);
    expect(item).toEqual({
      id: older.id,
      title: older.title,
      description: "",
      cover: null,
      isPublic: true,
      visibility: "public",
      userId: owner.id,
      owner: { id: owner.id, displayName: null },
      createdAt: older.createdAt,
      updatedAt: expect.any(String),
      _count: { tracks: 2, likes: 1 },
    });
    expect(item).not.toHaveProperty("tracks");
  });

  it("honours limit", async () => {
    const owner = await registerAccount("user");
    await createPlaylist(owner.client, { isPublic: true });
    await createPlaylist(owner.client, { isPublic: true });
    const list = await expectJson<PlaylistSummary[]>(
      await new Client().get(`${BASE}?limit=1`),
      200,
    );
    expect(list).toHaveLength(1);
  });

  it.each(BAD_PAGE_QUERIES)("400 for %s", async (query, path) => {
    const problem = await expectProblem(
      await new Client().get(`${BASE}?${query}`),
      400,
      "VALIDATION_FAILED",
    );
    expect((problem.errors as Array<{ path: string }>).map((e) => e.path)).toContain(path);
  });
});

describe("GET /playlists/me", () => {
  it("lists the caller's playlists, private ones too, newest update first, paginated", async () => {
    const owner = await registerAccount("user");
    const other = await registerAccount("user");
    await createPlaylist(other.client, { isPublic: true });
    const a = await createPlaylist(owner.client, { title: "A", isPublic: true });
    const b = await createPlaylist(owner.client, { title: "B" });
    const c = await createPlaylist(owner.client, { title: "C" });
    expect((await owner.client.put(`${BASE}/${a.id}`, { description: "touched" })).status).toBe(
      200,
    );

    const all = await expectJson<OwnPlaylist[]>(await owner.client.get(`${BASE}/me`), 200);
    expect(all.map((p) => p.id)).toEqual([a.id, c.id, b.id]);
    expect(all[1]).toEqual({
      id: c.id,
      title: "C",
      cover: null,
      isPublic: false,
      visibility: "private",
      updatedAt: c.updatedAt,
      tracks: [],
      _count: { tracks: 0 },
    });
    const page1 = await expectJson<OwnPlaylist[]>(
      await owner.client.get(`${BASE}/me?page=1&limit=2`),
      200,
    );
    const page2 = await expectJson<OwnPlaylist[]>(
      await owner.client.get(`${BASE}/me?page=2&limit=2`),
      200,
    );
    const page3 = await expectJson<OwnPlaylist[]>(
      await owner.client.get(`${BASE}/me?page=3&limit=2`),
      200,
    );
    expect(page1.map((p) => p.id)).toEqual([a.id, c.id]);
    expect(page2.map((p) => p.id)).toEqual([b.id]);
    expect(page3).toEqual([]);
  });

  it("carries the first 4 READY tracks in order and counts all READY ones", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const tracks = await readyTracks(6);
    const ids = tracks.map((t) => t.id);
    await addTracks(owner.client, playlist.id, [ids[5], ids[0], ids[3]] as string[]);
    await addTracks(owner.client, playlist.id, [ids[1], ids[4], ids[2]] as string[]);
    const artist = await insertArtist();
    const pending = await insertTrack(artist.id, { processingStatus: "PROCESSING" });
    await withDb((db) =>
      db
        .insert(playlistTracks)
        .values({ playlistId: playlist.id, trackId: pending.id, position: -1 }),
    );
    const [mine] = await expectJson<OwnPlaylist[]>(await owner.client.get(`${BASE}/me`), 200);
    expect(mine?.tracks).toEqual(
      [ids[5], ids[0], ids[3], ids[1]].map((id) => {
        const track = tracks.find((t) => t.id === id);
        return { id, title: track?.title, cover: null };
      }),
    );
    expect(mine?._count).toEqual({ tracks: 6 });
  });

  it("an empty list for a user without playlists", async () => {
    const owner = await registerAccount("user");
    expect(await expectJson(await owner.client.get(`${BASE}/me`), 200)).toEqual([]);
  });

  it.each(BAD_PAGE_QUERIES)("400 for %s", async (query, path) => {
    const owner = await registerAccount("user");
    const problem = await expectProblem(
      await owner.client.get(`${BASE}/me?${query}`),
      400,
      "VALIDATION_FAILED",
    );
    expect((problem.errors as Array<{ path: string }>).map((e) => e.path)).toContain(path);
  });
});
