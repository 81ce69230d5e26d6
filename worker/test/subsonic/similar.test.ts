import { listeningHistory } from "@edge-music/db";
import { describe, expect, it } from "vitest";
import { insertArtist, insertTrack, insertUser, withDb } from "../support/factories.ts";
import { type Answer, appAccount, call, errorCode, json } from "./support.ts";

const f = "json";

/** Listens as the history keeps them: one row per play. */
const played = (userId: string, ...trackIds: string[]) =>
  withDb((db) =>
    db
      .insert(listeningHistory)
      .values(trackIds.map((trackId) => ({ id: crypto.randomUUID(), userId, trackId }))),
  );

const ids = (songs: Answer[] | undefined) => (songs ?? []).map((song) => song.id);

describe("similar and top songs, from the listening history", () => {
  it("getSimilarSongs2: other artists' songs this artist's listeners played, most shared first", async () => {
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const [seed, neighbour, loner] = await Promise.all([
      insertArtist(),
      insertArtist(),
      insertArtist(),
    ]);
    const [own, alsoOwn, both, one, unheard, converting] = await Promise.all([
      insertTrack(seed.id),
      insertTrack(seed.id),
      insertTrack(neighbour.id),
      insertTrack(neighbour.id),
      insertTrack(loner.id),
      insertTrack(neighbour.id, { processingStatus: "PROCESSING" }),
    ]);
    const [a, b, c, stranger] = await Promise.all([
      insertUser(),
      insertUser(),
      insertUser(),
      insertUser(),
    ]);
    await played(a.id, own.id, both.id, converting.id);
    await played(b.id, alsoOwn.id, both.id, both.id, both.id);
    await played(c.id, own.id, one.id);
    await played(stranger.id, unheard.id);

    const body = await json(await call("getSimilarSongs2", { ...auth, id: seed.id }));
    expect(body.status).toBe("ok");
    // Never the artist's own songs, never a track that cannot play.
    expect(ids(body.similarSongs2.song)).toEqual([both.id, one.id]);
    expect(body.similarSongs2.song[0]).toMatchObject({ artistId: neighbour.id, isDir: false });
    const one_ = await json(await call("getSimilarSongs2", { ...auth, id: seed.id, count: "1" }));
    expect(ids(one_.similarSongs2.song)).toEqual([both.id]);
    // Nobody listened to this one's songs with others, and an unknown id names nobody: empty.
    for (const id of [loner.id, crypto.randomUUID(), "not-an-id"]) {
      const empty = await json(await call("getSimilarSongs2", { ...auth, id }));
      expect(empty.similarSongs2.song ?? []).toEqual([]);
    }
    expect(await errorCode(await call("getSimilarSongs2", auth))).toBe(10);
  });

  it("getTopSongs: an artist's songs by how many listeners played each, by the name shown", async () => {
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const artist = await insertArtist();
    const [hit, deep, quiet] = await Promise.all([
      insertTrack(artist.id),
      insertTrack(artist.id),
      insertTrack(artist.id),
    ]);
    const [a, b] = await Promise.all([insertUser(), insertUser()]);
    await played(a.id, hit.id, deep.id);
    // Many plays by one listener count once.
    await played(b.id, hit.id, deep.id, deep.id, deep.id, deep.id);
    const fans = await Promise.all([insertUser(), insertUser()]);
    for (const fan of fans) await played(fan.id, hit.id);

    const body = await json(
      await call("getTopSongs", { ...auth, artist: artist.username.toUpperCase() }),
    );
    expect(ids(body.topSongs.song)).toEqual([hit.id, deep.id, quiet.id]);
    const two = await json(
      await call("getTopSongs", { ...auth, artist: artist.username, count: "2" }),
    );
    expect(ids(two.topSongs.song)).toEqual([hit.id, deep.id]);
    const nobody = await json(await call("getTopSongs", { ...auth, artist: "no such artist" }));
    expect(nobody.topSongs.song ?? []).toEqual([]);
    expect(await errorCode(await call("getTopSongs", auth))).toBe(10);
  });
});
