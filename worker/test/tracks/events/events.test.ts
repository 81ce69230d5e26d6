import type { TrackState } from "@edge-music/contracts";
import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { Client, registerAccount } from "../../support/auth.ts";
import { CLOSED_PORT } from "../../support/env.ts";
import { insertTrack, withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";
import {
  artistWithTrack,
  eventsOf,
  listen,
  listenerConnections,
  ownRedisUser,
  processing,
  publish as publishTo,
  READY,
  testRedis,
} from "./support.ts";

const redis = testRedis();
afterAll(() => redis.quit());

const publish = (trackId: string, state: TrackState) => publishTo(redis, trackId, state);

describe("GET /api/v1/tracks/{id}/events", () => {
  it("sends the current state, then each published state with its id, and ends at READY", async () => {
    const { artist, track } = await artistWithTrack({ processingProgress: 7 });
    const stream = listen(await artist.client.get(eventsOf(track.id)));

    const first = await stream.next();
    expect(first?.event).toBe("status");
    expect(first?.state).toEqual(processing(7));

    const ids = [await publish(track.id, processing(40))];
    const second = await stream.next();
    expect(second).toMatchObject({ id: ids[0], state: processing(40) });
    ids.push(await publish(track.id, READY));
    expect(await stream.next()).toMatchObject({ id: ids[1], state: READY });
    expect(await stream.next()).toBeNull();
  });

  it("starts from the newest published state when it is newer than the row", async () => {
    const { artist, track } = await artistWithTrack({ processingProgress: 10 });
    const id = await publish(track.id, processing(55));
    const stream = listen(await artist.client.get(eventsOf(track.id)));
    expect(await stream.next()).toMatchObject({ id, state: processing(55) });
    await stream.close();

    // The row is ahead of the stream (a publish was lost): the row's state, with the stream's id.
    await withDb((db) =>
      db.update(tracks).set({ processingProgress: 80 }).where(eq(tracks.id, track.id)),
    );
    const again = listen(await artist.client.get(eventsOf(track.id)));
    expect(await again.next()).toMatchObject({ id, state: processing(80) });
    await again.close();

    // The stream has the end the row has not written yet: that end, and the stream is over.
    const end = await publish(track.id, { ...READY, processingAttempts: 1 });
    const last = listen(await artist.client.get(eventsOf(track.id)));
    expect(await last.next()).toMatchObject({ id: end, state: READY });
    expect(await last.next()).toBeNull();
  });

  it("resumes after Last-Event-ID with exactly the states that were missed", async () => {
    const { artist, track } = await artistWithTrack();
    const seen = await publish(track.id, processing(20));
    const missed = [
      await publish(track.id, processing(60)),
      await publish(track.id, processing(90)),
    ];
    const stream = listen(await artist.client.get(eventsOf(track.id), { "last-event-id": seen }));
    expect(await stream.next()).toMatchObject({ id: missed[0], state: processing(60) });
    expect(await stream.next()).toMatchObject({ id: missed[1], state: processing(90) });
    const failed: TrackState = {
      processingStatus: "FAILED",
      processingProgress: 90,
      processingError: "The file could not be decoded as audio.",
      processingAttempts: 1,
    };
    const end = await publish(track.id, failed);
    expect(await stream.next()).toMatchObject({ id: end, state: failed });
    expect(await stream.next()).toBeNull();
  });

  it("sends a heartbeat comment while nothing happens", async () => {
    const artist = await registerAccount(
      "artist",
      new Client(undefined, { EVENTS_HEARTBEAT_SECONDS: "0.2" }),
    );
    const track = await insertTrack(artist.id, { processingStatus: "PROCESSING" });
    const stream = listen(await artist.client.get(eventsOf(track.id)));
    await stream.next();
    const started = Date.now();
    const id = await new Promise<string>((resolve) =>
      setTimeout(() => resolve(publish(track.id, READY)), 700),
    );
    expect(await stream.next()).toMatchObject({ id, state: READY });
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(stream.comments.length).toBeGreaterThanOrEqual(2);
    expect(new Set(stream.comments)).toEqual(new Set(["heartbeat"]));
  });

  it("answers a finished track with its final state and ends, without Redis", async () => {
    const artist = await registerAccount(
      "artist",
      new Client(undefined, { REDIS_URL: `redis://127.0.0.1:${CLOSED_PORT}` }),
    );
    const track = await insertTrack(artist.id, {
      processingStatus: "FAILED",
      processingError: "No audio stream.",
      processingAttempts: 1,
      processingProgress: 5,
    });
    const stream = listen(await artist.client.get(eventsOf(track.id)));
    const only = await stream.next();
    expect(only?.state).toEqual({
      processingStatus: "FAILED",
      processingProgress: 5,
      processingError: "No audio stream.",
      processingAttempts: 1,
    });
    expect(only?.id).toBeUndefined();
    expect(await stream.next()).toBeNull();
  });

  it("answers 503 when Redis is unreachable for a track still converting", async () => {
    const artist = await registerAccount(
      "artist",
      new Client(undefined, { REDIS_URL: `redis://127.0.0.1:${CLOSED_PORT}` }),
    );
    const track = await insertTrack(artist.id, { processingStatus: "PROCESSING" });
    await expectProblem(await artist.client.get(eventsOf(track.id)), 503, "SERVICE_UNAVAILABLE");
  });

  it("lets the listener's connection go when the listener leaves", async () => {
    // Counted as a Redis user of its own: other files' listeners come and go on the same Redis.
    const user = await ownRedisUser(redis);
    const artist = await registerAccount("artist", new Client(undefined, { REDIS_URL: user.url }));
    const track = await insertTrack(artist.id, { processingStatus: "PROCESSING" });
    const listeners = () => listenerConnections(redis, user.name);
    try {
      const stream = listen(await artist.client.get(eventsOf(track.id)));
      await stream.next();
      expect(await listeners()).toBe(1);
      await stream.close();
      await expect.poll(listeners, { timeout: 5_000 }).toBe(0);
    } finally {
      await user.drop();
    }
  });

  it("is the owner's alone: 401 signed out, 403 another artist or a listener, 404 unknown", async () => {
    const { track } = await artistWithTrack();
    const stranger = await registerAccount("artist");
    const user = await registerAccount("user");
    await expectProblem(await new Client().get(eventsOf(track.id)), 401, "UNAUTHORIZED");
    await expectProblem(await stranger.client.get(eventsOf(track.id)), 403, "FORBIDDEN");
    await expectProblem(await user.client.get(eventsOf(track.id)), 403, "FORBIDDEN");
    await expectProblem(await stranger.client.get(eventsOf(crypto.randomUUID())), 404, "NOT_FOUND");
  });

  it("follows a retry by hand from its new round, not the failure before it", async () => {
    const { artist, track } = await artistWithTrack({
      processingStatus: "FAILED",
      processingError: "storage timed out",
      processingAttempts: 5,
      sourceKey: "tracks/x/source/take.wav",
      sourceFileName: "take.wav",
    });
    await publish(track.id, {
      processingStatus: "FAILED",
      processingProgress: 30,
      processingError: "storage timed out",
      processingAttempts: 5,
    });
    expect((await artist.client.post(`/api/v1/tracks/${track.id}/retry`)).status).toBe(202);
    const stream = listen(await artist.client.get(eventsOf(track.id)));
    expect((await stream.next())?.state).toEqual(processing(0, 0));
    const id = await publish(track.id, processing(12));
    expect(await stream.next()).toMatchObject({ id, state: processing(12) });
    await stream.close();
  });

  it("refuses a malformed id or Last-Event-ID (400)", async () => {
    const { artist, track } = await artistWithTrack();
    await expectProblem(await artist.client.get(eventsOf("nope")), 400, "VALIDATION_FAILED");
    for (const bad of ["abc", "1-2-3", "12", "-1-0"]) {
      await expectProblem(
        await artist.client.get(eventsOf(track.id), { "last-event-id": bad }),
        400,
        "VALIDATION_FAILED",
      );
    }
  });
});
