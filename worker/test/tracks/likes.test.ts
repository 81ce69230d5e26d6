import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../support/auth.ts";
import { insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";

interface LikeState {
  liked: boolean;
  _count: { likes: number };
}
interface LikedTrack {
  id: string;
  title: string;
  likedAt: string;
  artist: { id: string; username: string };
}

const like = (id: string) => `/api/v1/tracks/${id}/like`;
const LIKED = "/api/v1/tracks/me/liked";

async function json<T>(response: Response, status = 200): Promise<T> {
  expect(response.status).toBe(status);
  return (await response.json()) as T;
}

describe("track likes", () => {
  it("like and unlike are idempotent and report the count", async () => {
    const artist = await insertArtist();
    const track = await insertTrack(artist.id);
    const [a, b] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    expect(await json<LikeState>(await a.client.post(like(track.id)))).toEqual({
      liked: true,
      _count: { likes: 1 },
    });
    expect(await json<LikeState>(await a.client.post(like(track.id)))).toEqual({
      liked: true,
      _count: { likes: 1 },
    });
    expect(await json<LikeState>(await b.client.post(like(track.id)))).toEqual({
      liked: true,
      _count: { likes: 2 },
    });
    expect(await json<LikeState>(await a.client.delete(like(track.id)))).toEqual({
      liked: false,
      _count: { likes: 1 },
    });
    expect(await json<LikeState>(await a.client.delete(like(track.id)))).toEqual({
      liked: false,
      _count: { likes: 1 },
    });
  });

  it("lists liked tracks newest like first, with the artist, and their ids", async () => {
    const artist = await insertArtist();
    const liked = await Promise.all([1, 2, 3].map(() => insertTrack(artist.id)));
    const { client } = await registerAccount("user");
    for (const track of liked) await client.post(like(track.id));
    const page = await json<LikedTrack[]>(await client.get(`${LIKED}?limit=2`));
    expect(page.map((t) => t.id)).toEqual([liked[2]?.id, liked[1]?.id]);
    expect(page[0]?.artist).toMatchObject({ id: artist.id, username: artist.username });
    expect(Date.parse(page[0]?.likedAt ?? "")).toBeGreaterThan(0);
    const rest = await json<LikedTrack[]>(await client.get(`${LIKED}?limit=2&page=2`));
    expect(rest.map((t) => t.id)).toEqual([liked[0]?.id]);
    const ids = await json<string[]>(await client.get(`${LIKED}/ids`));
    expect(ids).toEqual([liked[2]?.id, liked[1]?.id, liked[0]?.id]);
  });

  it("answers 404 for a track that cannot be heard, and keeps no like", async () => {
    const artist = await insertArtist();
    const converting = await insertTrack(artist.id, { processingStatus: "PROCESSING" });
    const failed = await insertTrack(artist.id, { processingStatus: "FAILED" });
    const { client } = await registerAccount("user");
    for (const id of [converting.id, failed.id, crypto.randomUUID()]) {
      await expectProblem(await client.post(like(id)), 404, "NOT_FOUND");
      await expectProblem(await client.delete(like(id)), 404, "NOT_FOUND");
    }
    expect(await json<string[]>(await client.get(`${LIKED}/ids`))).toEqual([]);
  });

  it("leaves out a liked track while it is not READY, and lists it again after", async () => {
    const artist = await insertArtist();
    const track = await insertTrack(artist.id);
    const { client } = await registerAccount("user");
    await client.post(like(track.id));
    const setStatus = (processingStatus: "READY" | "PROCESSING") =>
      withDb((db) => db.update(tracks).set({ processingStatus }).where(eq(tracks.id, track.id)));
    await setStatus("PROCESSING");
    expect(await json<LikedTrack[]>(await client.get(LIKED))).toEqual([]);
    await setStatus("READY");
    expect((await json<LikedTrack[]>(await client.get(LIKED))).map((t) => t.id)).toEqual([
      track.id,
    ]);
  });

  it("refuses bad ids and pages with 400, signed-out callers with 401, artists with 403", async () => {
    const { client } = await registerAccount("user");
    await expectProblem(await client.post(like("not-a-uuid")), 400, "VALIDATION_FAILED");
    await expectProblem(await client.get(`${LIKED}?limit=0`), 400, "VALIDATION_FAILED");
    await expectProblem(await client.get(`${LIKED}?page=x`), 400, "VALIDATION_FAILED");
    const track = await insertTrack((await insertArtist()).id);
    await expectProblem(await new Client().post(like(track.id)), 401, "UNAUTHORIZED");
    const artist = await registerAccount("artist");
    await expectProblem(await artist.client.post(like(track.id)), 403, "FORBIDDEN");
  });

  it("a deleted track's likes go with it", async () => {
    const artist = await registerAccount("artist");
    const track = await insertTrack(artist.id);
    const { client } = await registerAccount("user");
    await client.post(like(track.id));
    expect((await artist.client.delete(`/api/v1/tracks/${track.id}`)).status).toBe(204);
    expect(await json<string[]>(await client.get(`${LIKED}/ids`))).toEqual([]);
  });
});
