import { playlistTracks, tracks } from "@edge-music/db";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { registerAccount, uniqueName } from "../support/auth.ts";
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

describe("POST /playlists/:id/tracks", () => {
  it("appends in the given order, keeps order across adds, and answers the full list", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const [a, b, c, d, e] = (await readyTracks(5)).map((t) => t.id) as [
      string,
      string,
      string,
      string,
      string,
    ];
    const first = await expectJson<Playlist>(
      await addTracks(owner.client, playlist.id, [c, a]),
      200,
    );
    expect(idsOf(first)).toEqual([c, a]);
    // b and e are new; a is already there and keeps its place; d twice counts once.
    const second = await expectJson<Playlist>(
      await addTracks(owner.client, playlist.id, [b, a, d, e, d]),
      200,
    );
    expect(idsOf(second)).toEqual([c, a, b, d, e]);
    expect(second._count).toEqual({ tracks: 5, likes: 0 });
    expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(playlist.updatedAt));
    const track = second.tracks[0];
    expect(track).toMatchObject({ id: c, title: "T2", cover: null, duration: 215.5 });
    expect(track?.artist.id).toBe(track?.artistId);
    const fetched = await expectJson<Playlist>(
      await owner.client.get(`${BASE}/${playlist.id}`),
      200,
    );
    expect(idsOf(fetched)).toEqual([c, a, b, d, e]);
  });

  it("adding only tracks already present changes nothing, not even updatedAt", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const [a] = (await readyTracks(1)).map((t) => t.id) as [string];
    const first = await expectJson<Playlist>(await addTracks(owner.client, playlist.id, [a]), 200);
    const again = await expectJson<Playlist>(await addTracks(owner.client, playlist.id, [a]), 200);
    expect(idsOf(again)).toEqual([a]);
    expect(again.updatedAt).toBe(first.updatedAt);
  });

  it("404 naming unknown and unplayable ids, and adds nothing", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const [good] = await readyTracks(1);
    const artist = await insertArtist();
    const processing = await insertTrack(artist.id, { processingStatus: "PROCESSING" });
    const failed = await insertTrack(artist.id, { processingStatus: "FAILED" });
    const unknown = crypto.randomUUID();
    const problem = await expectProblem(
      await addTracks(owner.client, playlist.id, [
        good?.id ?? "",
        unknown,
        processing.id,
        failed.id,
      ]),
      404,
      "NOT_FOUND",
    );
    expect(problem.missingTrackIds).toEqual([unknown, processing.id, failed.id]);
    expect(problem.detail).toContain(unknown);
    const fetched = await expectJson<Playlist>(
      await owner.client.get(`${BASE}/${playlist.id}`),
      200,
    );
    expect(fetched.tracks).toEqual([]);
    expect(fetched.updatedAt).toBe(playlist.updatedAt);
  });

  it.each([
    ["an empty list", { trackIds: [] }],
    ["101 ids", { trackIds: Array.from({ length: 101 }, () => crypto.randomUUID()) }],
    ["an id that is not a UUID", { trackIds: ["track-1"] }],
    ["trackIds that is not an array", { trackIds: crypto.randomUUID() }],
    ["no trackIds", {}],
  ])("400 for %s", async (_name, body) => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    await expectProblem(
      await owner.client.post(`${BASE}/${playlist.id}/tracks`, body),
      400,
      "VALIDATION_FAILED",
    );
  });

  it("takes 100 ids at once", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const artist = await insertArtist();
    const ids = await withDb(async (db) => {
      const rows = await db
        .insert(tracks)
        .values(
          Array.from({ length: 100 }, (_, i) => ({
            artistId: artist.id,
            title: `Bulk ${i}`,
            processingStatus: "READY" as const,
          })),
        )
        .returning({ id: tracks.id });
      return rows.map((row) => row.id);
    });
    const added = await expectJson<Playlist>(await addTracks(owner.client, playlist.id, ids), 200);
    expect(idsOf(added)).toEqual(ids);
  });

  it("403 for another user, 404 for an unknown playlist, 400 for a bad id", async () => {
    const owner = await registerAccount("user");
    const stranger = await registerAccount("user");
    const playlist = await createPlaylist(owner.client, { isPublic: true });
    const [track] = await readyTracks(1);
    const trackIds = [track?.id ?? ""];
    await expectProblem(await addTracks(stranger.client, playlist.id, trackIds), 403, "FORBIDDEN");
    await expectProblem(
      await addTracks(owner.client, crypto.randomUUID(), trackIds),
      404,
      "NOT_FOUND",
    );
    await expectProblem(await addTracks(owner.client, "x", trackIds), 400, "VALIDATION_FAILED");
  });

  it("concurrent adds to one playlist never share a position", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const ids = (await readyTracks(8)).map((t) => t.id);
    const answers = await Promise.all(ids.map((id) => addTracks(owner.client, playlist.id, [id])));
    expect(answers.map((r) => r.status)).toEqual(ids.map(() => 200));
    const positions = await withDb(async (db) =>
      (
        await db
          .select({ position: playlistTracks.position })
          .from(playlistTracks)
          .where(sql`${playlistTracks.playlistId} = ${playlist.id}`)
      ).map((row) => row.position),
    );
    expect(new Set(positions).size).toBe(8);
  });

  it("409 beyond 10000 tracks in one playlist", async () => {
    const owner = await registerAccount("user");
    const playlist = await createPlaylist(owner.client);
    const artist = await insertArtist();
    // 9999 entries (titles unique to this test) straight in the database; the API then adds the 10000th and refuses the 10001st.
    await withDb(async (db) => {
      await db.execute(sql`
        with made as (
          insert into ${tracks} (artist_id, title, processing_status)
          select ${artist.id}, ${uniqueName("filler")} || g, 'READY' from generate_series(1, 9999) g
          returning id
        )
        insert into ${playlistTracks} (playlist_id, track_id, position)
        select ${playlist.id}, id, row_number() over () from made`);
    });
    const [one, two] = (await readyTracks(2)).map((t) => t.id) as [string, string];
    const full = await expectJson<Playlist>(await addTracks(owner.client, playlist.id, [one]), 200);
    expect(full._count.tracks).toBe(10_000);
    expect(full.tracks.at(-1)?.id).toBe(one);
    await expectProblem(await addTracks(owner.client, playlist.id, [two]), 409, "CONFLICT");
  });
});
