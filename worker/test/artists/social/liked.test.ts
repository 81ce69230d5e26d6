import { describe, expect, it } from "vitest";
import { registerAccount } from "../../support/auth.ts";
import { BAD_PAGE_QUERIES, expectPagedInOrder } from "../../support/paging.ts";
import { expectProblem } from "../../support/problem.ts";
import { ARTISTS, call, follow, like, profiledArtist, unlike } from "./support.ts";

interface Liked {
  id: string;
  username: string;
  bio: string;
  avatar: string | null;
  backgroundImage: string | null;
  createdAt: string;
  likedAt: string;
  _count: { likes: number };
}

const liked = (client: Parameters<typeof call>[0], query = "") =>
  call<Liked[]>(client, "GET", `/me/liked${query}`);

describe("GET /artists/me/liked", () => {
  it("lists liked artists with their profile, like time and like count", async () => {
    const [alice, bob] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const artist = await profiledArtist();
    await like(bob.client, artist.id);
    const before = Date.now();
    await like(alice.client, artist.id);
    const [item, ...rest] = await liked(alice.client);
    expect(rest).toEqual([]);
    expect(item).toEqual({
      id: artist.id,
      username: artist.username,
      displayName: null,
      bio: "Synthwave from Lisbon.",
      avatar: artist.avatar,
      backgroundImage: artist.backgroundImage,
      createdAt: artist.createdAt.toISOString(),
      likedAt: expect.any(String),
      _count: { likes: 2 },
    });
    expect(Math.abs(Date.parse(item?.likedAt ?? "") - before)).toBeLessThan(60_000);
    expect(JSON.stringify(item)).not.toMatch(/email|password/i);
  });

  it("puts the most recent like first and pages with limit 1 without repeats", async () => {
    const user = await registerAccount("user");
    const artists = [await profiledArtist(), await profiledArtist(), await profiledArtist()];
    // Liked in another order than made: the list follows the likes, not the artists' age.
    const likeOrder = [artists[1], artists[2], artists[0]].map((a) => a?.id ?? "");
    for (const id of likeOrder) await like(user.client, id);
    await expectPagedInOrder((query) => liked(user.client, query), likeOrder.reverse());
  });

  it("shows only the caller's likes: not follows, not another's likes, not undone ones", async () => {
    const [alice, bob] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const [kept, dropped, followed, bobs] = [
      await profiledArtist(),
      await profiledArtist(),
      await profiledArtist(),
      await profiledArtist(),
    ];
    await like(alice.client, kept.id);
    await like(alice.client, dropped.id);
    await follow(alice.client, followed.id);
    await like(bob.client, bobs.id);
    await unlike(alice.client, dropped.id);
    expect((await liked(alice.client)).map((a) => a.id)).toEqual([kept.id]);
  });

  it("is an empty array for a user who likes no one", async () => {
    const user = await registerAccount("user");
    expect(await liked(user.client)).toEqual([]);
  });

  it.each(BAD_PAGE_QUERIES)("400s ?%s", async (query, path) => {
    const user = await registerAccount("user");
    const response = await user.client.get(`${ARTISTS}/me/liked?${query}`);
    const body = await expectProblem(response, 400, "VALIDATION_FAILED");
    expect(body.errors).toEqual([expect.objectContaining({ path })]);
  });
});
