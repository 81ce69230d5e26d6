import { artistLikes } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { registerAccount } from "../../support/auth.ts";
import { withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";
import { ARTISTS, follow, like, profiledArtist, unlike } from "./support.ts";

const likesInDb = (artistId: string) =>
  withDb((db) => db.select().from(artistLikes).where(eq(artistLikes.artistId, artistId)));

describe("POST /artists/:id/like", () => {
  it("likes and answers {liked: true, _count: {likes}}", async () => {
    const [alice, bob] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const artist = await profiledArtist();
    expect(await like(alice.client, artist.id)).toEqual({ liked: true, _count: { likes: 1 } });
    expect(await like(bob.client, artist.id)).toEqual({ liked: true, _count: { likes: 2 } });
    expect((await likesInDb(artist.id)).map((r) => r.userId).sort()).toEqual(
      [alice.id, bob.id].sort(),
    );
  });

  it("is idempotent: liking again keeps one like", async () => {
    const user = await registerAccount("user");
    const artist = await profiledArtist();
    await like(user.client, artist.id);
    expect(await like(user.client, artist.id)).toEqual({ liked: true, _count: { likes: 1 } });
    expect((await likesInDb(artist.id)).length).toBe(1);
  });

  it("is independent of following", async () => {
    const user = await registerAccount("user");
    const artist = await profiledArtist();
    await like(user.client, artist.id);
    expect((await follow(user.client, artist.id))._count.followers).toBe(1);
    expect(await unlike(user.client, artist.id)).toEqual({ liked: false, _count: { likes: 0 } });
    expect((await follow(user.client, artist.id))._count.followers).toBe(1);
  });

  it("counts right when 10 users like the same artist at once", async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => registerAccount("user")));
    const artist = await profiledArtist();
    const answers = await Promise.all(users.map((u) => like(u.client, artist.id)));
    for (const answer of answers) {
      expect(answer.liked).toBe(true);
      expect(answer._count.likes).toBeGreaterThanOrEqual(1);
      expect(answer._count.likes).toBeLessThanOrEqual(10);
    }
    expect((await likesInDb(artist.id)).length).toBe(10);
  });

  it("404s an artist that does not exist", async () => {
    const user = await registerAccount("user");
    const response = await user.client.post(`${ARTISTS}/${crypto.randomUUID()}/like`);
    await expectProblem(response, 404, "NOT_FOUND");
  });
});

describe("DELETE /artists/:id/like", () => {
  it("removes the caller's like only and answers {liked: false, _count: {likes}}", async () => {
    const [alice, bob] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const artist = await profiledArtist();
    await like(alice.client, artist.id);
    await like(bob.client, artist.id);
    expect(await unlike(alice.client, artist.id)).toEqual({ liked: false, _count: { likes: 1 } });
    expect((await likesInDb(artist.id)).map((r) => r.userId)).toEqual([bob.id]);
  });

  it("is idempotent: removing a like that does not exist is a 200", async () => {
    const user = await registerAccount("user");
    const artist = await profiledArtist();
    expect(await unlike(user.client, artist.id)).toEqual({ liked: false, _count: { likes: 0 } });
  });

  it("404s an artist that does not exist", async () => {
    const user = await registerAccount("user");
    const response = await user.client.delete(`${ARTISTS}/${crypto.randomUUID()}/like`);
    await expectProblem(response, 404, "NOT_FOUND");
  });
});
