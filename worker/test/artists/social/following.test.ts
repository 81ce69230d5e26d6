import { describe, expect, it } from "vitest";
import { registerAccount } from "../../support/auth.ts";
import { BAD_PAGE_QUERIES, expectPagedInOrder } from "../../support/paging.ts";
import { expectProblem } from "../../support/problem.ts";
import { ARTISTS, call, follow, profiledArtist, unfollow } from "./support.ts";

interface Followed {
  id: string;
  username: string;
  bio: string;
  avatar: string | null;
  backgroundImage: string | null;
  createdAt: string;
  followedAt: string;
  _count: { followers: number };
}

const following = (client: Parameters<typeof call>[0], query = "") =>
  call<Followed[]>(client, "GET", `/me/following${query}`);

describe("GET /artists/me/following", () => {
  it("lists followed artists with their profile, follow time and follower count", async () => {
    const [alice, bob] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const artist = await profiledArtist();
    await follow(bob.client, artist.id);
    const before = Date.now();
    await follow(alice.client, artist.id);
    const [item, ...rest] = await following(alice.client);
    expect(rest).toEqual([]);
    expect(item).toEqual({
      id: artist.id,
      username: artist.username,
      displayName: null,
      bio: "Synthwave from Lisbon.",
      avatar: artist.avatar,
      backgroundImage: artist.backgroundImage,
      createdAt: artist.createdAt.toISOString(),
      followedAt: expect.any(String),
      _count: { followers: 2 },
    });
    expect(Math.abs(Date.parse(item?.followedAt ?? "") - before)).toBeLessThan(60_000);
    expect(Object.keys(item ?? {})).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/email|password/i)]),
    );
  });

  it("puts the most recent follow first and pages with limit 1 without repeats", async () => {
    const user = await registerAccount("user");
    const artists = [await profiledArtist(), await profiledArtist(), await profiledArtist()];
    // Followed in another order than made: the list follows the follows, not the artists' age.
    const followOrder = [artists[1], artists[2], artists[0]].map((a) => a?.id ?? "");
    for (const id of followOrder) await follow(user.client, id);
    const newestFirst = [...followOrder].reverse();
    await expectPagedInOrder((query) => following(user.client, query), newestFirst);
    expect((await following(user.client, "?page=2&limit=2")).map((a) => a.id)).toEqual([
      newestFirst[2],
    ]);
  });

  it("shows only the caller's follows, and not artists they unfollowed", async () => {
    const [alice, bob] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const [kept, dropped, bobs] = [
      await profiledArtist(),
      await profiledArtist(),
      await profiledArtist(),
    ];
    await follow(alice.client, kept.id);
    await follow(alice.client, dropped.id);
    await follow(bob.client, bobs.id);
    await unfollow(alice.client, dropped.id);
    expect((await following(alice.client)).map((a) => a.id)).toEqual([kept.id]);
  });

  it("is an empty array for a user who follows no one", async () => {
    const user = await registerAccount("user");
    expect(await following(user.client)).toEqual([]);
  });

  it.each(BAD_PAGE_QUERIES)("400s ?%s", async (query, path) => {
    const user = await registerAccount("user");
    const response = await user.client.get(`${ARTISTS}/me/following?${query}`);
    const body = await expectProblem(response, 400, "VALIDATION_FAILED");
    expect(body.errors).toEqual([expect.objectContaining({ path })]);
  });
});
