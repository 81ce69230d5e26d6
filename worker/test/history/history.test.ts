import { tracks as tracksTable } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { uuidv7Time } from "../../src/features/history/uuidv7.ts";
import { registerAccount } from "../support/auth.ts";
import { withDb } from "../support/factories.ts";
import { artistWithTracks, HISTORY, historyOf, listen, rowsOf } from "./support.ts";

describe("POST /history/tracks/:trackId", () => {
  it("records a listen at the server's time and answers 201 {id, listenedAt}", async () => {
    const user = await registerAccount("user");
    const { tracks } = await artistWithTracks(1);
    const before = Date.now();
    const response = await user.client.post(`${HISTORY}/tracks/${tracks[0]?.id}`);
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string; listenedAt: string };
    expect(Object.keys(body).sort()).toEqual(["id", "listenedAt"]);
    expect(body.id[14]).toBe("7");
    const listenedAt = Date.parse(body.listenedAt);
    expect(new Date(listenedAt).toISOString()).toBe(body.listenedAt);
    expect(Math.abs(listenedAt - before)).toBeLessThan(60_000);
    expect(Math.abs(uuidv7Time(body.id) - listenedAt)).toBeLessThan(60_000);
    const rows = await rowsOf(user.id);
    expect(rows.map((r) => [r.id, r.trackId])).toEqual([[body.id, tracks[0]?.id]]);
  });

  it("adds an entry for every listen of the same track", async () => {
    const user = await registerAccount("user");
    const { tracks } = await artistWithTracks(1);
    const trackId = tracks[0]?.id ?? "";
    const first = await listen(user.client, trackId);
    const second = await listen(user.client, trackId);
    expect(second.id).not.toBe(first.id);
    expect((await rowsOf(user.id)).length).toBe(2);
  });
});

describe("GET /history", () => {
  it("answers each entry with its track and the track's artist", async () => {
    const user = await registerAccount("user");
    const { artist, tracks } = await artistWithTracks(1);
    const track = tracks[0];
    if (!track) throw new Error("no track");
    const listened = await listen(user.client, track.id);
    expect(await historyOf(user.client)).toEqual([
      {
        id: listened.id,
        userId: user.id,
        trackId: track.id,
        listenedAt: listened.listenedAt,
        track: {
          id: track.id,
          title: track.title,
          cover: null,
          duration: 215.5,
          artistId: artist.id,
          artist: {
            id: artist.id,
            username: artist.username,
            displayName: null,
            avatar: artist.avatar,
          },
        },
      },
    ]);
  });

  it("lists each track once at its most recent listen: A, B, A gives [A, B]", async () => {
    const user = await registerAccount("user");
    const { tracks } = await artistWithTracks(2);
    const [a, b] = tracks.map((t) => t.id);
    await listen(user.client, a ?? "");
    const listenB = await listen(user.client, b ?? "");
    const lastA = await listen(user.client, a ?? "");
    const entries = await historyOf(user.client);
    expect(entries.map((e) => e.trackId)).toEqual([a, b]);
    expect(entries.map((e) => e.id)).toEqual([lastA.id, listenB.id]);
    expect(entries[0]?.listenedAt).toBe(lastA.listenedAt);
  });

  it("leaves out a track made unlisted or private since, in full pages, and shows it again once public", async () => {
    const user = await registerAccount("user");
    const { tracks } = await artistWithTracks(4);
    const [a, b, c, d] = tracks.map((t) => t.id ?? "");
    for (const id of [a, b, c, d]) await listen(user.client, id ?? "");
    const hide = (id: string, visibility: "unlisted" | "private" | "public") =>
      withDb((db) => db.update(tracksTable).set({ visibility }).where(eq(tracksTable.id, id)));
    await hide(d ?? "", "unlisted");
    await hide(c ?? "", "private");
    expect((await historyOf(user.client)).map((e) => e.trackId)).toEqual([b, a]);
    // The page is cut after the filter: a page of one is the newest listed track, not empty.
    expect((await historyOf(user.client, "?limit=1")).map((e) => e.trackId)).toEqual([b]);
    await hide(d ?? "", "public");
    expect((await historyOf(user.client)).map((e) => e.trackId)).toEqual([d, b, a]);
  });

  it("is empty for a user who has listened to nothing", async () => {
    const user = await registerAccount("user");
    expect(await historyOf(user.client)).toEqual([]);
  });

  it("never shows another user's listens", async () => {
    const [alice, bob] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const { tracks } = await artistWithTracks(2);
    const [shared, bobsOnly] = tracks.map((t) => t.id);
    const alices = await listen(alice.client, shared ?? "");
    await listen(bob.client, shared ?? "");
    await listen(bob.client, bobsOnly ?? "");
    const entries = await historyOf(alice.client);
    expect(entries.map((e) => [e.id, e.userId, e.trackId])).toEqual([
      [alices.id, alice.id, shared],
    ]);
  });
});

describe("DELETE /history", () => {
  it("answers 204 and clears the caller's history only", async () => {
    const [alice, bob] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const { tracks } = await artistWithTracks(2);
    for (const track of tracks) {
      await listen(alice.client, track.id);
      await listen(bob.client, track.id);
    }
    const response = await alice.client.delete(HISTORY);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(await historyOf(alice.client)).toEqual([]);
    expect(await rowsOf(alice.id)).toEqual([]);
    expect((await historyOf(bob.client)).length).toBe(2);
  });

  it("answers 204 for an empty history too", async () => {
    const user = await registerAccount("user");
    expect((await user.client.delete(HISTORY)).status).toBe(204);
  });
});

describe("DELETE /history/tracks/:trackId", () => {
  it("answers 200 with the number of the caller's listens of that track it removed", async () => {
    const [alice, bob] = await Promise.all([registerAccount("user"), registerAccount("user")]);
    const { tracks } = await artistWithTracks(2);
    const [gone, kept] = tracks.map((t) => t.id);
    await listen(alice.client, gone ?? "");
    await listen(alice.client, kept ?? "");
    await listen(alice.client, gone ?? "");
    await listen(bob.client, gone ?? "");
    const response = await alice.client.delete(`${HISTORY}/tracks/${gone}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ deleted: 2 });
    expect((await historyOf(alice.client)).map((e) => e.trackId)).toEqual([kept]);
    expect((await historyOf(bob.client)).map((e) => e.trackId)).toEqual([gone]);
  });

  it("is idempotent: 200 with deleted 0 when nothing is left, or for an unknown track", async () => {
    const user = await registerAccount("user");
    const { tracks } = await artistWithTracks(1);
    await listen(user.client, tracks[0]?.id ?? "");
    await user.client.delete(`${HISTORY}/tracks/${tracks[0]?.id}`);
    for (const trackId of [tracks[0]?.id, crypto.randomUUID()]) {
      const response = await user.client.delete(`${HISTORY}/tracks/${trackId}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ deleted: 0 });
    }
  });
});
