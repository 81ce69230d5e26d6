import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../support/auth.ts";
import { expectProblem } from "../support/problem.ts";
import { BASE, createPlaylist, expectJson, type Playlist } from "./support.ts";

interface LikeState {
  liked: boolean;
  _count: { likes: number };
}

const likePath = (id: string) => `${BASE}/${id}/like`;

describe("POST and DELETE /playlists/:id/like", () => {
  it("is idempotent both ways and reports the count", async () => {
    const owner = await registerAccount("user");
    const fan = await registerAccount("user");
    const playlist = await createPlaylist(owner.client, { isPublic: true });
    const liked = { liked: true, _count: { likes: 1 } };
    expect(await expectJson<LikeState>(await fan.client.post(likePath(playlist.id)), 200)).toEqual(
      liked,
    );
    expect(await expectJson<LikeState>(await fan.client.post(likePath(playlist.id)), 200)).toEqual(
      liked,
    );
    const seen = await expectJson<Playlist>(await new Client().get(`${BASE}/${playlist.id}`), 200);
    expect(seen._count.likes).toBe(1);
    const unliked = { liked: false, _count: { likes: 0 } };
    expect(
      await expectJson<LikeState>(await fan.client.delete(likePath(playlist.id)), 200),
    ).toEqual(unliked);
    expect(
      await expectJson<LikeState>(await fan.client.delete(likePath(playlist.id)), 200),
    ).toEqual(unliked);
  });

  it("counts 10 parallel likes of 10 users exactly", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client, { isPublic: true });
    const fans = await Promise.all(Array.from({ length: 10 }, () => registerAccount("user")));
    const answers = await Promise.all(
      fans.flatMap((fan) => [
        fan.client.post(likePath(playlist.id)),
        fan.client.post(likePath(playlist.id)),
      ]),
    );
    const states = await Promise.all(answers.map((r) => expectJson<LikeState>(r, 200)));
    expect(states.every((s) => s.liked)).toBe(true);
    // The last like to commit counts itself and every earlier one.
    expect(Math.max(...states.map((s) => s._count.likes))).toBe(10);
    const seen = await expectJson<Playlist>(await owner.client.get(`${BASE}/${playlist.id}`), 200);
    expect(seen._count.likes).toBe(10);
    await Promise.all(fans.slice(0, 4).map((fan) => fan.client.delete(likePath(playlist.id))));
    const after = await expectJson<Playlist>(await owner.client.get(`${BASE}/${playlist.id}`), 200);
    expect(after._count.likes).toBe(6);
  });

  it("the owner may like their own private playlist; others get 404 for it", async () => {
    const owner = await registerAccount("user");
    const stranger = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    expect(
      await expectJson<LikeState>(await owner.client.post(likePath(playlist.id)), 200),
    ).toEqual({ liked: true, _count: { likes: 1 } });
    await expectProblem(await stranger.client.post(likePath(playlist.id)), 404, "NOT_FOUND");
    await expectProblem(await stranger.client.delete(likePath(playlist.id)), 404, "NOT_FOUND");
  });

  it("404 for an unknown playlist, 400 for a bad id", async () => {
    const fan = await registerAccount("user");
    const unknown = crypto.randomUUID();
    await expectProblem(await fan.client.post(likePath(unknown)), 404, "NOT_FOUND");
    await expectProblem(await fan.client.delete(likePath(unknown)), 404, "NOT_FOUND");
    await expectProblem(await fan.client.post(likePath("bad")), 400, "VALIDATION_FAILED");
    await expectProblem(await fan.client.delete(likePath("bad")), 400, "VALIDATION_FAILED");
  });

  it("likes go with a deleted playlist", async () => {
    const owner = await registerAccount("user");
    const fan = await registerAccount("user");
    const playlist = await createPlaylist(owner.client, { isPublic: true });
    await fan.client.post(likePath(playlist.id));
    expect((await owner.client.delete(`${BASE}/${playlist.id}`)).status).toBe(204);
    await expectProblem(await fan.client.delete(likePath(playlist.id)), 404, "NOT_FOUND");
  });
});
