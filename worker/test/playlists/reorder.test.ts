import { playlistTracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
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

const reorder = (client: Client, playlistId: string, body: unknown) =>
  client.put(`${BASE}/${playlistId}/tracks`, body);

/** A playlist of a new user holding `count` READY tracks, as the API answered the add. */
async function filledPlaylist(count: number, isPublic = false) {
  const owner = await registerAccount("user");
  const playlist = await createPlaylist(owner.client, { isPublic });
  const ids = (await readyTracks(count)).map((t) => t.id);
  const filled = await expectJson<Playlist>(await addTracks(owner.client, playlist.id, ids), 200);
  return { owner, playlist: filled, ids };
}

const read = async (client: Client, id: string) =>
  await expectJson<Playlist>(await client.get(`${BASE}/${id}`), 200);

describe("PUT /playlists/:id/tracks", () => {
  it("puts the tracks in the given order, answers the playlist, and GET shows it", async () => {
    const { owner, playlist, ids } = await filledPlaylist(4);
    const [a, b, c, d] = ids as [string, string, string, string];
    const answer = await expectJson<Playlist>(
      await reorder(owner.client, playlist.id, { trackIds: [c, a, d, b] }),
      200,
    );
    expect(idsOf(answer)).toEqual([c, a, d, b]);
    expect(answer._count).toEqual({ tracks: 4, likes: 0 });
    expect(Date.parse(answer.updatedAt)).toBeGreaterThan(Date.parse(playlist.updatedAt));
    // The entries moved; when each was added did not change.
    const addedAt = new Map(playlist.tracks.map((t) => [t.id, t.addedAt]));
    expect(answer.tracks.every((t) => t.addedAt === addedAt.get(t.id))).toBe(true);
    expect(idsOf(await read(owner.client, playlist.id))).toEqual([c, a, d, b]);
    // Ids in upper case name the same tracks; an append still goes after the last one.
    const upper = [b, d, a, c].map((id) => id.toUpperCase());
    const again = await expectJson<Playlist>(
      await reorder(owner.client, playlist.id, { trackIds: upper }),
      200,
    );
    expect(idsOf(again)).toEqual([b, d, a, c]);
    const [e] = (await readyTracks(1)).map((t) => t.id) as [string];
    const appended = await expectJson<Playlist>(
      await addTracks(owner.client, playlist.id, [e]),
      200,
    );
    expect(idsOf(appended)).toEqual([b, d, a, c, e]);
  });

  it("the same order changes nothing, not even updatedAt", async () => {
    const { owner, playlist, ids } = await filledPlaylist(3);
    const same = await expectJson<Playlist>(
      await reorder(owner.client, playlist.id, { trackIds: ids }),
      200,
    );
    expect(idsOf(same)).toEqual(ids);
    expect(same.updatedAt).toBe(playlist.updatedAt);
  });

  it("409 naming the tracks left out and the ids not in the playlist; nothing changes", async () => {
    const { owner, playlist, ids } = await filledPlaylist(3);
    const [a, b, c] = ids as [string, string, string];
    const [other] = (await readyTracks(1)).map((t) => t.id) as [string];
    const unknown = crypto.randomUUID();
    const cases: Array<[string[], string[], string[]]> = [
      [[c, a], [], [b]], // a missing id
      [[c, b, a, other], [other], []], // an extra id (a real track, not in the playlist)
      [[c, unknown, a], [unknown], [b]], // both
    ];
    for (const [trackIds, extra, omitted] of cases) {
      const problem = await expectProblem(
        await reorder(owner.client, playlist.id, { trackIds }),
        409,
        "CONFLICT",
      );
      expect(problem).toMatchObject({ extraTrackIds: extra, omittedTrackIds: omitted });
      for (const id of [...extra, ...omitted]) expect(problem.detail).toContain(id);
    }
    const seen = await read(owner.client, playlist.id);
    expect(idsOf(seen)).toEqual([a, b, c]);
    expect(seen.updatedAt).toBe(playlist.updatedAt);
  });

  it("409 for a playlist without tracks", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const [a] = (await readyTracks(1)).map((t) => t.id) as [string];
    const problem = await expectProblem(
      await reorder(owner.client, playlist.id, { trackIds: [a] }),
      409,
      "CONFLICT",
    );
    expect(problem.extraTrackIds).toEqual([a]);
  });

  it("400 for an id given twice, also in another case, naming the repeat", async () => {
    const { owner, playlist, ids } = await filledPlaylist(2);
    const [a, b] = ids as [string, string];
    for (const repeat of [a, a.toUpperCase()]) {
      const problem = await expectProblem(
        await reorder(owner.client, playlist.id, { trackIds: [a, b, repeat] }),
        400,
        "VALIDATION_FAILED",
      );
      expect(problem.errors).toEqual([
        expect.objectContaining({ path: "json.trackIds.2", message: "repeats item 0" }),
      ]);
    }
    expect(idsOf(await read(owner.client, playlist.id))).toEqual([a, b]);
  });

  it.each([
    ["an empty list", { trackIds: [] }],
    ["an id that is not a UUID", { trackIds: ["track-1"] }],
    ["trackIds that is not an array", { trackIds: crypto.randomUUID() }],
    ["no trackIds", {}],
    ["10001 ids", { trackIds: Array.from({ length: 10_001 }, () => crypto.randomUUID()) }],
  ])("400 for %s", async (_name, body) => {
    const { owner, playlist } = await filledPlaylist(1);
    await expectProblem(await reorder(owner.client, playlist.id, body), 400, "VALIDATION_FAILED");
  });

  it("400 for malformed JSON, 415 for a body that is not JSON", async () => {
    const { owner, playlist } = await filledPlaylist(1);
    const send = (contentType: string) =>
      owner.client.request("PUT", `${BASE}/${playlist.id}/tracks`, undefined, {
        "content-type": contentType,
      });
    expect((await send("application/json")).status).toBe(400);
    await expectProblem(await send("text/plain"), 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("403 for another user (who learns nothing of the tracks), 404 for an unknown playlist, 400 for a bad id, 401 signed out", async () => {
    const { owner, playlist, ids } = await filledPlaylist(2, true);
    const stranger = await registerAccount("user");
    const reversed = { trackIds: [...ids].reverse() };
    const forbidden = await expectProblem(
      await reorder(stranger.client, playlist.id, reversed),
      403,
      "FORBIDDEN",
    );
    expect(forbidden).not.toHaveProperty("omittedTrackIds");
    await expectProblem(
      await reorder(stranger.client, playlist.id, { trackIds: [crypto.randomUUID()] }),
      403,
      "FORBIDDEN",
    );
    await expectProblem(
      await reorder(owner.client, crypto.randomUUID(), reversed),
      404,
      "NOT_FOUND",
    );
    await expectProblem(await reorder(owner.client, "x", reversed), 400, "VALIDATION_FAILED");
    await expectProblem(await reorder(new Client(), playlist.id, reversed), 401, "UNAUTHORIZED");
    expect(idsOf(await read(new Client(), playlist.id))).toEqual(ids);
  });

  it("orders the listed tracks; an entry that is not listed (not READY) need not be named", async () => {
    const { owner, playlist, ids } = await filledPlaylist(2);
    const [a, b] = ids as [string, string];
    const artist = await insertArtist();
    const hidden = await insertTrack(artist.id, { processingStatus: "PROCESSING" });
    await withDb((db) =>
      db
        .insert(playlistTracks)
        .values({ playlistId: playlist.id, trackId: hidden.id, position: 1 }),
    );
    const answer = await expectJson<Playlist>(
      await reorder(owner.client, playlist.id, { trackIds: [b, a] }),
      200,
    );
    expect(idsOf(answer)).toEqual([b, a]);
    const problem = await expectProblem(
      await reorder(owner.client, playlist.id, { trackIds: [a, b, hidden.id] }),
      409,
      "CONFLICT",
    );
    expect(problem.extraTrackIds).toEqual([hidden.id]);
  });

  it("concurrent reorders and adds: each answer is a whole order, and no track is lost", async () => {
    const { owner, playlist, ids } = await filledPlaylist(4);
    const [a, b, c, d] = ids as [string, string, string, string];
    const [e] = (await readyTracks(1)).map((t) => t.id) as [string];
    const orders = [
      [d, c, b, a],
      [b, a, d, c],
      [c, d, a, b],
      [a, c, b, d],
    ];
    const [added, ...answers] = await Promise.all([
      addTracks(owner.client, playlist.id, [e]),
      ...orders.map((trackIds) => reorder(owner.client, playlist.id, { trackIds })),
    ]);
    expect(added?.status).toBe(200);
    // A reorder that came after the add left e out: 409, and it changed nothing.
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const final = idsOf(await read(owner.client, playlist.id));
    expect([...final].sort()).toEqual([a, b, c, d, e].sort());
    // Each applied order is whole, and came before the add (which its list would lack): the
    // final order is the last applied one (or the first, if none was), with e appended.
    const applied = await Promise.all(
      answers.filter((r) => r.status === 200).map(async (r) => idsOf((await r.json()) as Playlist)),
    );
    for (const order of applied) expect([...order].sort()).toEqual([a, b, c, d].sort());
    expect(final.at(-1)).toBe(e);
    expect([ids, ...applied].map((order) => order.join())).toContain(final.slice(0, 4).join());
    const positions = await withDb(async (db) =>
      (
        await db
          .select({ position: playlistTracks.position })
          .from(playlistTracks)
          .where(eq(playlistTracks.playlistId, playlist.id))
      ).map((row) => row.position),
    );
    expect(new Set(positions).size).toBe(5);
  });
});
