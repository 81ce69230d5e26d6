import { playInbox } from "@edge-music/db";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../../src/env.ts";
import { retryDelaySeconds } from "../../src/features/plays/consumer.ts";
import { recordPlay } from "../../src/features/plays/record.ts";
import { createLogger } from "../../src/logger.ts";
import { CLOSED_PORT, testBindings } from "../support/env.ts";
import { httpDb, insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { PlaysQueue, playsBinding } from "../support/plays.ts";
import { deliver, everyMinute, play, rollupsOf } from "./support.ts";

const listener = () => `u:${crypto.randomUUID()}`;
const today = () => new Date().toISOString().slice(0, 10);

async function readyTrack(values: Parameters<typeof insertTrack>[1] = {}) {
  const artist = await insertArtist();
  return await insertTrack(artist.id, values);
}

describe("the plays queue's consumer", () => {
  it("counts two listeners' plays on the track, per hour, per day, per country and for the artist", async () => {
    const track = await readyTrack();
    const at = new Date();
    const result = await deliver([
      play(track.id, listener(), at, "FR"),
      play(track.id, listener(), at, "DE"),
    ]);
    expect(result.retryMessages).toEqual([]);
    const rollups = await rollupsOf(track.id);
    expect(rollups.plays).toBe(2);
    expect(rollups.daily).toEqual([{ day: today(), plays: 2, listeners: 2 }]);
    expect(rollups.hourly.map((h) => h.plays)).toEqual([2]);
    expect(rollups.hourly[0]?.hour.getTime()).toBe(
      Math.floor(at.getTime() / 3_600_000) * 3_600_000,
    );
    expect(rollups.countries).toEqual([
      { country: "DE", plays: 1 },
      { country: "FR", plays: 1 },
    ]);
    expect(rollups.artistDaily).toEqual([{ day: today(), plays: 2, listeners: 2 }]);
  });

  it("counts the same listener and track once per 10 minutes, within a batch and across batches", async () => {
    const track = await readyTrack();
    const who = listener();
    const t0 = new Date(Date.now() - 30 * 60_000);
    await deliver([play(track.id, who, t0), play(track.id, who, new Date(t0.getTime() + 60_000))]);
    await deliver([play(track.id, who, new Date(t0.getTime() + 9 * 60_000))]);
    expect((await rollupsOf(track.id)).plays).toBe(1);
    // 10 minutes after the play that counted, and again 10 minutes later (in one batch).
    await deliver([
      play(track.id, who, new Date(t0.getTime() + 10 * 60_000)),
      play(track.id, who, new Date(t0.getTime() + 20 * 60_000)),
    ]);
    const rollups = await rollupsOf(track.id);
    expect(rollups.plays).toBe(3);
    // One listener however many plays; the artist's day too.
    expect(rollups.daily.reduce((n, d) => n + d.listeners, 0)).toBe(rollups.daily.length);
  });

  it("counts a batch delivered twice once (the queue delivers at least once)", async () => {
    const track = await readyTrack();
    const batch = [play(track.id, listener()), play(track.id, listener())];
    await deliver(batch);
    await deliver(batch, { attempts: 2 });
    expect((await rollupsOf(track.id)).plays).toBe(2);
  });

  it("counts no play of a track that is not READY or is private", async () => {
    const artist = await insertArtist();
    const processing = await insertTrack(artist.id, { processingStatus: "PROCESSING" });
    const failed = await insertTrack(artist.id, { processingStatus: "FAILED" });
    const hidden = await insertTrack(artist.id, { visibility: "private" });
    const unlisted = await insertTrack(artist.id, { visibility: "unlisted" });
    const result = await deliver(
      [processing, failed, hidden, unlisted].map((t) => play(t.id, listener())),
    );
    expect(result.retryMessages).toEqual([]);
    expect((await rollupsOf(processing.id)).plays).toBe(0);
    expect((await rollupsOf(failed.id)).plays).toBe(0);
    expect((await rollupsOf(hidden.id)).plays).toBe(0);
    expect((await rollupsOf(unlisted.id)).plays).toBe(1);
  });

  it("drops a message that is no play report, and counts the rest of its batch", async () => {
    const track = await readyTrack();
    const result = await deliver([
      { v: 1, trackId: "not-a-uuid", listener: "u:x", country: "FR", at: "yesterday" },
      "plain text",
      play(track.id, listener()),
    ]);
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toHaveLength(3);
    expect((await rollupsOf(track.id)).plays).toBe(1);
  });

  it("delivers the batch again, later, while the database is down; then the plays count", async () => {
    const track = await readyTrack();
    const batch = [play(track.id, listener()), play(track.id, listener())];
    const down = testBindings({
      NEON_HTTP_ENDPOINT: `http://127.0.0.1:${CLOSED_PORT}/sql`,
    });
    const first = await deliver(batch, { env: down, attempts: 1 });
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryMessages).toHaveLength(2);
    const later = await deliver(batch, { env: down, attempts: 30 });
    expect(later.retryMessages).toHaveLength(2);
    expect((await rollupsOf(track.id)).plays).toBe(0);
    // The database is back: the next delivery counts them.
    const back = await deliver(batch, { attempts: 31 });
    expect(back.retryMessages).toEqual([]);
    expect((await rollupsOf(track.id)).plays).toBe(2);
  });
});

describe("a failed batch's next delivery", () => {
  it("waits longer each time, from 5 seconds up to 10 minutes", () => {
    expect([1, 2, 3, 4, 7, 8, 30].map(retryDelaySeconds)).toEqual([5, 10, 20, 40, 320, 600, 600]);
  });
});

describe("when the queue refuses a play", () => {
  const deps = (queue: PlaysQueue) => {
    const pending: Promise<unknown>[] = [];
    const env = parseEnv(testBindings({ PLAYS: playsBinding(queue) }));
    return {
      pending,
      deps: {
        db: httpDb(),
        env,
        log: createLogger({}, "error"),
        waitUntil: (promise: Promise<unknown>) => void pending.push(promise),
      },
    };
  };

  it("sends it to the queue after the response when the queue takes it", async () => {
    const track = await readyTrack();
    const queue = new PlaysQueue();
    const { deps: d, pending } = deps(queue);
    recordPlay(d, { trackId: track.id, listener: listener(), country: "FR", at: new Date() });
    expect(pending).toHaveLength(1);
    await Promise.all(pending);
    expect(queue.of(track.id)).toHaveLength(1);
  });

  it("keeps it in the inbox, which the per-minute cron counts", async () => {
    const track = await readyTrack();
    const { deps: d, pending } = deps(new PlaysQueue(true));
    recordPlay(d, { trackId: track.id, listener: listener(), country: "FR", at: new Date() });
    recordPlay(d, { trackId: track.id, listener: listener(), country: "JP", at: new Date() });
    await Promise.all(pending);
    const waiting = await withDb((db) =>
      db.select().from(playInbox).where(sql`${playInbox.play}->>'trackId' = ${track.id}`),
    );
    expect(waiting).toHaveLength(2);
    expect((await rollupsOf(track.id)).plays).toBe(0);
    await everyMinute();
    const rollups = await rollupsOf(track.id);
    expect(rollups.plays).toBe(2);
    expect(rollups.countries.map((c) => c.country)).toEqual(["FR", "JP"]);
    const left = await withDb((db) =>
      db
        .select()
        .from(playInbox)
        .where(eq(sql`${playInbox.play}->>'trackId'`, track.id)),
    );
    expect(left).toEqual([]);
  });
});
