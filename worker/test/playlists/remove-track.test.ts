import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../support/auth.ts";
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

describe("DELETE /playlists/:id/tracks/:trackId", () => {
  it("removes one track, keeps the others' order, and answers the playlist", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const [a, b, c] = (await readyTracks(3)).map((t) => t.id) as [string, string, string];
    const added = await expectJson<Playlist>(
      await addTracks(owner.client, playlist.id, [a, b, c]),
      200,
    );
    const response = await owner.client.delete(`${BASE}/${playlist.id}/tracks/${b}`);
    const after = await expectJson<Playlist>(response, 200);
    expect(idsOf(after)).toEqual([a, c]);
    expect(after._count.tracks).toBe(2);
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(added.updatedAt));
    // Appends go after the last one, and b can come back (at the end).
    const again = await expectJson<Playlist>(await addTracks(owner.client, playlist.id, [b]), 200);
    expect(idsOf(again)).toEqual([a, c, b]);
    await expectProblem(
      await owner.client.delete(`${BASE}/${playlist.id}/tracks/${crypto.randomUUID()}`),
      404,
      "NOT_FOUND",
    );
  });

  it("404 for a track not in the playlist, 403 for another user, 400 for bad ids", async () => {
    const owner = await registerAccount("user");
    const stranger = await registerAccount("user");
    const playlist = await createPlaylist(owner.client, { isPublic: true });
    const [a, b] = (await readyTracks(2)).map((t) => t.id) as [string, string];
    await addTracks(owner.client, playlist.id, [a]);
    const path = (trackId: string) => `${BASE}/${playlist.id}/tracks/${trackId}`;
    await expectProblem(await owner.client.delete(path(b)), 404, "NOT_FOUND");
    await expectProblem(await stranger.client.delete(path(a)), 403, "FORBIDDEN");
    await expectProblem(
      await owner.client.delete(`${BASE}/${crypto.randomUUID()}/tracks/${a}`),
      404,
      "NOT_FOUND",
    );
    await expectProblem(await owner.client.delete(path("nope")), 400, "VALIDATION_FAILED");
    await expectProblem(
      await owner.client.delete(`${BASE}/nope/tracks/${a}`),
      400,
      "VALIDATION_FAILED",
    );
    const seen = await expectJson<Playlist>(await new Client().get(`${BASE}/${playlist.id}`), 200);
    expect(idsOf(seen)).toEqual([a]);
  });
});
