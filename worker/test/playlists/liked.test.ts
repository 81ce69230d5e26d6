import { describe, expect, it } from "vitest";
import type { Client } from "../support/auth.ts";
import { registerAccount } from "../support/auth.ts";
import { BAD_PAGE_QUERIES, expectPagedInOrder } from "../support/paging.ts";
import { expectProblem } from "../support/problem.ts";
import {
  addTracks,
  BASE,
  createPlaylist,
  expectJson,
  type PlaylistSummary,
  readyTracks,
} from "./support.ts";

type Liked = PlaylistSummary & { likedAt: string };

const like = async (client: Client, id: string) =>
  expectJson(await client.post(`${BASE}/${id}/like`), 200);
const unlike = async (client: Client, id: string) =>
  expectJson(await client.delete(`${BASE}/${id}/like`), 200);
const liked = async (client: Client, query = "") =>
  expectJson<Liked[]>(await client.get(`${BASE}/me/liked${query}`), 200);
const publish = async (client: Client, id: string, isPublic: boolean) =>
  expectJson(await client.put(`${BASE}/${id}`, { isPublic }), 200);

describe("GET /playlists/me/liked", () => {
  it("lists a liked playlist with its fields, like time and counts, not its tracks", async () => {
    const [owner, fan, other] = await Promise.all([
      registerAccount("user"),
      registerAccount("user"),
      registerAccount("user"),
    ]);
    const playlist = await createPlaylist(owner.client, { isPublic: true, description: "Dusk" });
    const tracks = await readyTracks(2);
    expect(
      (
        await addTracks(
          owner.client,
          playlist.id,
          tracks.map((t) => t.id),
        )
      ).status,
    ).toBe(200);
    await like(other.client, playlist.id);
    const before = Date.now();
    await like(fan.client, playlist.id);
    const [item, ...rest] = await liked(fan.client);
    expect(rest).toEqual([]);
    expect(item).toEqual({
      id: playlist.id,
      title: playlist.title,
      description: "Dusk",
      cover: null,
      isPublic: true,
      visibility: "public",
      userId: owner.id,
      owner: { id: owner.id, displayName: null },
      createdAt: playlist.createdAt,
      updatedAt: expect.any(String),
      likedAt: expect.any(String),
      _count: { tracks: 2, likes: 2 },
    });
    expect(Math.abs(Date.parse(item?.likedAt ?? "") - before)).toBeLessThan(60_000);
  });

  it("puts the most recent like first and pages with limit 1 without repeats", async () => {
    const [owner, fan] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const lists = [];
    for (let i = 0; i < 3; i++) lists.push(await createPlaylist(owner.client, { isPublic: true }));
    // Liked in another order than made: the list follows the likes, not the playlists' age.
    const likeOrder = [lists[1], lists[2], lists[0]].map((p) => p?.id ?? "");
    for (const id of likeOrder) await like(fan.client, id);
    await expectPagedInOrder((query) => liked(fan.client, query), likeOrder.reverse());
  });

  it("shows only the caller's likes, and not undone ones", async () => {
    const [owner, alice, bob] = await Promise.all([
      registerAccount("user"),
      registerAccount("user"),
      registerAccount("user"),
    ]);
    const [kept, dropped, bobs] = [
      await createPlaylist(owner.client, { isPublic: true }),
      await createPlaylist(owner.client, { isPublic: true }),
      await createPlaylist(owner.client, { isPublic: true }),
    ];
    await like(alice.client, kept.id);
    await like(alice.client, dropped.id);
    await like(bob.client, bobs.id);
    await unlike(alice.client, dropped.id);
    expect((await liked(alice.client)).map((p) => p.id)).toEqual([kept.id]);
  });

  it("leaves out a liked playlist while its owner keeps it private, and shows it again once public", async () => {
    const [owner, fan] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const playlist = await createPlaylist(owner.client, { isPublic: true });
    await like(fan.client, playlist.id);
    await publish(owner.client, playlist.id, false);
    expect(await liked(fan.client)).toEqual([]);
    await publish(owner.client, playlist.id, true);
    expect((await liked(fan.client)).map((p) => p.id)).toEqual([playlist.id]);
  });

  it("lists the caller's own private playlist that they like", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    await like(owner.client, playlist.id);
    const [item] = await liked(owner.client);
    expect(item).toMatchObject({ id: playlist.id, isPublic: false, _count: { likes: 1 } });
  });

  it("is an empty array for a user who likes nothing, and not the caller's own unliked ones", async () => {
    const user = await registerAccount("user");
    await createPlaylist(user.client, { isPublic: true });
    expect(await liked(user.client)).toEqual([]);
  });

  it.each(BAD_PAGE_QUERIES)("400s ?%s", async (query, path) => {
    const user = await registerAccount("user");
    const response = await user.client.get(`${BASE}/me/liked?${query}`);
    const body = await expectProblem(response, 400, "VALIDATION_FAILED");
    expect(body.errors).toEqual([expect.objectContaining({ path })]);
  });
});
