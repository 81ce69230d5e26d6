// Attacks on live status (GET /tracks/{id}/events, Server-Sent Events), played as an abuser
// would: making the Worker open Redis connections for tracks that are not theirs, holding more
// streams than anyone watches, holding one for ever, asking to resume after an entry that will
// never come, and keeping a stream after the track or the session is gone. Each stream holds a
// Redis connection of its own (ADR 0017), so each of these would exhaust Redis.
import { afterAll, describe, expect, it } from "vitest";
import { seatFor } from "../../src/connections/track-listeners.ts";
import type { Bindings } from "../../src/env.ts";
import { authPath, Client, registerAccount } from "../support/auth.ts";
import { insertTrack } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";
import {
  endsWithin,
  eventsOf,
  type Listening,
  listen,
  listenerConnections,
  ownRedisUser as ownRedisUserOf,
  processing,
  publish,
  redisUrlAs,
  testRedis,
} from "../tracks/events/support.ts";

const redis = testRedis();
const redisUsers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of redisUsers) await drop();
  await redis.quit();
});

/** The caps the route's description states: listeners at once of one track, of one account. */
const PER_TRACK = 5;
const PER_ACCOUNT = 25;

/** A Redis user of the test's own, dropped after the file. */
async function ownRedisUser() {
  const user = await ownRedisUserOf(redis);
  redisUsers.push(user.drop);
  return user;
}

/** Failed sign-ins to Redis as `user` in the ACL log: every connection attempt leaves one. */
async function redisAuthFailures(user: string): Promise<number> {
  const entries = (await redis.call("ACL", "LOG", "128")) as string[][];
  return entries.filter((entry) => entry[entry.indexOf("username") + 1] === user).length;
}

/** A new artist whose requests see `bindings`, with `count` tracks converting. */
async function artistWithTracks(count: number, bindings: Partial<Bindings> = {}) {
  const artist = await registerAccount("artist", new Client(undefined, bindings));
  const tracks = await Promise.all(
    Array.from({ length: count }, () => insertTrack(artist.id, { processingStatus: "PROCESSING" })),
  );
  return { artist, trackIds: tracks.map((track) => track.id) };
}

/** The answers' streams (200) and refusals (the rest), each stream past its first event. */
async function sortAnswers(responses: Response[]) {
  const held: Listening[] = [];
  const refused: Response[] = [];
  for (const response of responses) {
    if (response.status === 200) held.push(listen(response));
    else refused.push(response);
  }
  await Promise.all(held.map((stream) => stream.next()));
  return { held, refused };
}

/** A 429 of the caps: a problem with a Retry-After of whole seconds, at most a stream's life. */
async function expectCapped(response: Response) {
  await expectProblem(response, 429, "RATE_LIMITED");
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(5 * 60 + 15);
}

/** Expects a problem, first closing the body of a stream that should not have been opened. */
async function expectRefused(response: Response, status: number, code: string) {
  if (response.status === 200) await response.body?.cancel();
  return await expectProblem(response, status, code);
}

const closeAll = (streams: Listening[]) => Promise.all(streams.map((stream) => stream.close()));

describe("live status under abuse (GET /api/v1/tracks/{id}/events)", () => {
  it("checks the owner before touching Redis: a stranger's or an unknown track opens no connection", async () => {
    const { trackIds } = await artistWithTracks(1);
    // A Redis user that does not exist: every connection attempt fails its AUTH and is logged.
    const ghost = `ghost-${crypto.randomUUID()}`;
    const { artist: stranger, trackIds: own } = await artistWithTracks(1, {
      REDIS_URL: redisUrlAs(ghost, "nope"),
    });
    await expectRefused(await stranger.client.get(eventsOf(trackIds[0] ?? "")), 403, "FORBIDDEN");
    await expectRefused(await stranger.client.get(eventsOf(crypto.randomUUID())), 404, "NOT_FOUND");
    expect(await redisAuthFailures(ghost)).toBe(0);
    // The probe sees a connection: the stranger's own track does go to Redis (and fails there).
    await expectRefused(
      await stranger.client.get(eventsOf(own[0] ?? "")),
      503,
      "SERVICE_UNAVAILABLE",
    );
    expect(await redisAuthFailures(ghost)).toBeGreaterThan(0);
  });

  it(`lets ${PER_TRACK} listeners follow one track at once; the next get 429 with Retry-After and hold no connection`, async () => {
    const user = await ownRedisUser();
    const { artist, trackIds } = await artistWithTracks(1, { REDIS_URL: user.url });
    const path = eventsOf(trackIds[0] ?? "");
    // All at once, so that concurrent opens cannot slip under the cap together.
    const { held, refused } = await sortAnswers(
      await Promise.all(Array.from({ length: PER_TRACK + 3 }, () => artist.client.get(path))),
    );
    try {
      expect(held).toHaveLength(PER_TRACK);
      expect(refused).toHaveLength(3);
      for (const response of refused) await expectCapped(response);
      expect(await listenerConnections(redis, user.name)).toBe(PER_TRACK);

      // A listener that leaves frees its seat for the next.
      await held.pop()?.close();
      await expect.poll(() => listenerConnections(redis, user.name)).toBe(PER_TRACK - 1);
      const next = await openWhenFree(artist.client, path);
      held.push(next);
      expect(await listenerConnections(redis, user.name)).toBe(PER_TRACK);
    } finally {
      await closeAll(held);
    }
  });

  it(`lets one account follow ${PER_ACCOUNT} streams at once over all its tracks; the next get 429`, async () => {
    const user = await ownRedisUser();
    const { artist, trackIds } = await artistWithTracks(PER_ACCOUNT + 5, { REDIS_URL: user.url });
    const { held, refused } = await sortAnswers(
      await Promise.all(trackIds.map((id) => artist.client.get(eventsOf(id)))),
    );
    try {
      expect(held).toHaveLength(PER_ACCOUNT);
      expect(refused).toHaveLength(5);
      for (const response of refused) await expectCapped(response);
      expect(await listenerConnections(redis, user.name)).toBe(PER_ACCOUNT);
      // Another artist is not held back by this one.
      const other = await artistWithTracks(1, { REDIS_URL: user.url });
      const theirs = listen(await other.artist.client.get(eventsOf(other.trackIds[0] ?? "")));
      held.push(theirs);
      await theirs.next();
    } finally {
      await closeAll(held);
    }
  });

  it("counts seats in Redis for every isolate: seats held elsewhere count, seats past their end do not", async () => {
    const { artist, trackIds } = await artistWithTracks(1);
    const trackId = trackIds[0] ?? "";
    const { trackKey, accountKey } = seatFor(artist.id, trackId);
    // Another isolate's live streams (ending in a minute) fill the track's seats: refused.
    const later = Date.now() + 60_000;
    const elsewhere = Array.from({ length: PER_TRACK }, () => crypto.randomUUID());
    for (const key of [trackKey, accountKey]) {
      await redis.zadd(key, ...elsewhere.flatMap((id) => [later, id]));
    }
    const refused = await artist.client.get(eventsOf(trackId));
    await expectCapped(refused);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // Those streams died without leaving their seats, which have now ended: trimmed, and let in.
    const ended = Date.now() - 1_000;
    for (const key of [trackKey, accountKey]) {
      await redis.zadd(key, ...elsewhere.flatMap((id) => [ended, id]));
    }
    const stream = listen(await artist.client.get(eventsOf(trackId)));
    await stream.next();
    expect(await redis.zcard(trackKey)).toBe(1);
    expect(await redis.pttl(accountKey)).toBeGreaterThan(0);
    // Its seat is left when it ends, and the keys go with their last seat.
    await stream.close();
    await expect.poll(() => redis.exists(trackKey, accountKey)).toBe(0);
  });

  it("ends a stream after its lifetime (EVENTS_LIFETIME_SECONDS); the client resumes with Last-Event-ID", async () => {
    const { artist, trackIds } = await artistWithTracks(1, {
      EVENTS_LIFETIME_SECONDS: "1",
      EVENTS_HEARTBEAT_SECONDS: "0.2",
    });
    const trackId = trackIds[0] ?? "";
    const seen = await publish(redis, trackId, processing(10));
    const stream = listen(await artist.client.get(eventsOf(trackId)));
    expect(await stream.next()).toMatchObject({ id: seen, state: processing(10) });
    const started = Date.now();
    try {
      expect(await endsWithin(stream, 4_000)).toBe(true);
    } finally {
      await stream.close();
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    // The stream left its seat before it ended.
    expect(await redis.exists(seatFor(artist.id, trackId).trackKey)).toBe(0);

    const missed = await publish(redis, trackId, processing(20));
    const resumed = listen(await artist.client.get(eventsOf(trackId), { "last-event-id": seen }));
    try {
      expect(await resumed.next()).toMatchObject({ id: missed, state: processing(20) });
    } finally {
      await resumed.close();
    }
  });

  it("refuses a Last-Event-ID past the newest entry of the track's stream (400), which would wait for ever", async () => {
    const { artist, trackIds } = await artistWithTracks(2);
    const [trackId = "", unpublished = ""] = trackIds;
    const newest = await publish(redis, trackId, processing(10));
    const [ms = "0", seq = "0"] = newest.split("-");
    for (const beyond of [
      `${ms}-${Number(seq) + 1}`,
      `${Number(ms) + 1}-0`,
      "99999999999999999999-0",
    ]) {
      const problem = await expectRefused(
        await artist.client.get(eventsOf(trackId), { "last-event-id": beyond }),
        400,
        "VALIDATION_FAILED",
      );
      expect(problem.errors).toEqual([expect.objectContaining({ path: "header.last-event-id" })]);
    }
    // Nothing published yet: every id is ahead of the stream.
    await expectRefused(
      await artist.client.get(eventsOf(unpublished), { "last-event-id": "1-0" }),
      400,
      "VALIDATION_FAILED",
    );
    // The newest itself is fine: the stream goes on after it.
    const stream = listen(await artist.client.get(eventsOf(trackId), { "last-event-id": newest }));
    const next = await publish(redis, trackId, processing(30));
    expect(await stream.next()).toMatchObject({ id: next, state: processing(30) });
    await stream.close();
  });

  it("ends the stream when the track is deleted, within the check interval (EVENTS_CHECK_SECONDS)", async () => {
    const { artist, trackIds } = await artistWithTracks(1, {
      EVENTS_CHECK_SECONDS: "0.3",
      EVENTS_HEARTBEAT_SECONDS: "0.2",
    });
    const trackId = trackIds[0] ?? "";
    const stream = listen(await artist.client.get(eventsOf(trackId)));
    try {
      await stream.next();
      expect((await artist.client.delete(`/api/v1/tracks/${trackId}`)).status).toBe(204);
      expect(await endsWithin(stream, 3_000)).toBe(true);
    } finally {
      await stream.close();
    }
  });

  it("ends the stream when its session is gone (signed out), within the check interval", async () => {
    const { artist, trackIds } = await artistWithTracks(1, {
      EVENTS_CHECK_SECONDS: "0.3",
      EVENTS_HEARTBEAT_SECONDS: "0.2",
    });
    const stream = listen(await artist.client.get(eventsOf(trackIds[0] ?? "")));
    try {
      await stream.next();
      expect((await artist.client.post(`${authPath("artist")}/logout`)).status).toBe(204);
      expect(await endsWithin(stream, 3_000)).toBe(true);
    } finally {
      await stream.close();
    }
  });
});

/** Opens the stream as soon as a seat is free (a leaving listener's seat is freed after it). */
async function openWhenFree(client: Client, path: string): Promise<Listening> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const response = await client.get(path);
    if (response.status === 200 || Date.now() > deadline) {
      const stream = listen(response);
      await stream.next();
      return stream;
    }
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
