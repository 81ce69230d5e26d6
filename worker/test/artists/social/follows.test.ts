import { follows } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { registerAccount } from "../../support/auth.ts";
import { withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";
import { ARTISTS, follow, profiledArtist, unfollow } from "./support.ts";

const followersInDb = (artistId: string) =>
  withDb((db) => db.select().from(follows).where(eq(follows.artistId, artistId)));

describe("POST /artists/:id/follow", () => {
  it("follows and answers the artist with the current follower count", async () => {
    const user = await registerAccount("user");
    const artist = await profiledArtist();
    expect(await follow(user.client, artist.id)).toEqual({
      id: artist.id,
      username: artist.username,
      displayName: null,
      avatar: artist.avatar,
      _count: { followers: 1 },
    });
    const rows = await followersInDb(artist.id);
    expect(rows.map((r) => r.userId)).toEqual([user.id]);
  });

  it("is idempotent: following again keeps one follow", async () => {
    const user = await registerAccount("user");
    const artist = await profiledArtist();
    await follow(user.client, artist.id);
    expect((await follow(user.client, artist.id))._count.followers).toBe(1);
    expect((await followersInDb(artist.id)).length).toBe(1);
  });

  it("counts every follower", async () => {
    const [alice, bob] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const artist = await profiledArtist();
    expect((await follow(alice.client, artist.id))._count.followers).toBe(1);
    expect((await follow(bob.client, artist.id))._count.followers).toBe(2);
  });

  it("counts right when 10 users follow the same artist at once", async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => registerAccount("user")));
    const artist = await profiledArtist();
    const answers = await Promise.all(users.map((u) => follow(u.client, artist.id)));
    for (const answer of answers) {
      expect(answer._count.followers).toBeGreaterThanOrEqual(1);
      expect(answer._count.followers).toBeLessThanOrEqual(10);
    }
    // Each answer is read in its follow's own transaction: it counts the caller and every follow
    // committed before it (two at the same instant may not count each other); the next read
    // counts all ten, and none was lost.
    const [first] = users;
    if (!first) throw new Error("no users");
    expect((await follow(first.client, artist.id))._count.followers).toBe(10);
    expect((await followersInDb(artist.id)).length).toBe(10);
  });

  it("404s an artist that does not exist", async () => {
    const user = await registerAccount("user");
    const response = await user.client.post(`${ARTISTS}/${crypto.randomUUID()}/follow`);
    await expectProblem(response, 404, "NOT_FOUND");
  });
});

describe("DELETE /artists/:id/follow", () => {
  it("unfollows and answers the artist with the current follower count", async () => {
    const [alice, bob] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const artist = await profiledArtist();
    await follow(alice.client, artist.id);
    await follow(bob.client, artist.id);
    expect(await unfollow(alice.client, artist.id)).toEqual({
      id: artist.id,
      username: artist.username,
      displayName: null,
      avatar: artist.avatar,
      _count: { followers: 1 },
    });
    expect((await followersInDb(artist.id)).map((r) => r.userId)).toEqual([bob.id]);
  });

  it("is idempotent: unfollowing an artist one does not follow is a 200", async () => {
    const user = await registerAccount("user");
    const artist = await profiledArtist();
    expect((await unfollow(user.client, artist.id))._count.followers).toBe(0);
    await follow(user.client, artist.id);
    await unfollow(user.client, artist.id);
    expect((await unfollow(user.client, artist.id))._count.followers).toBe(0);
  });

  it("404s an artist that does not exist", async () => {
    const user = await registerAccount("user");
    const response = await user.client.delete(`${ARTISTS}/${crypto.randomUUID()}/follow`);
    await expectProblem(response, 404, "NOT_FOUND");
  });
});

describe("bad artist ids", () => {
  it.each([
    ["POST", "follow"],
    ["DELETE", "follow"],
    ["POST", "like"],
    ["DELETE", "like"],
  ])("%s /artists/:id/%s with a malformed id is a 400", async (method, action) => {
    const user = await registerAccount("user");
    for (const id of ["not-a-uuid", "0195f3a4-8c1e-7d2a-9b3c-4d5e6f70819", "1"]) {
      const response = await user.client.request(method, `${ARTISTS}/${id}/${action}`);
      const body = await expectProblem(response, 400, "VALIDATION_FAILED");
      expect(body.errors).toEqual([expect.objectContaining({ path: "param.id" })]);
    }
  });
});
