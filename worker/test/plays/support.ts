import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import {
  playArtistDaily,
  playCountriesDaily,
  playCountsDaily,
  playCountsHourly,
  tracks,
} from "@edge-music/db";
import { eq } from "drizzle-orm";
import type { Bindings } from "../../src/env.ts";
import type { PlayMessage } from "../../src/features/plays/message.ts";
import worker from "../../src/index.ts";
import { testBindings } from "../support/env.ts";
import { withDb } from "../support/factories.ts";

let delivery = 0;

/** Runs the Worker's queue() handler on `plays` as one batch; answers the ack/retry state. */
export async function deliver(
  plays: unknown[],
  options: { attempts?: number; env?: Bindings } = {},
) {
  const batch = createMessageBatch(
    "edge-music-plays",
    plays.map((body) => ({
      id: `m-${++delivery}`,
      timestamp: new Date(),
      attempts: options.attempts ?? 1,
      body,
    })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, options.env ?? testBindings(), ctx);
  return await getQueueResult(batch, ctx);
}

/** A play report as the Worker sends it. */
export const play = (
  trackId: string,
  listener: string,
  at = new Date(),
  country = "FR",
): PlayMessage => ({ v: 1, trackId, listener, country, at: at.toISOString() });

/** Runs the per-minute cron (inbox, sweeps, trending) as Cloudflare would. */
export async function everyMinute(env: Bindings = testBindings(), at = new Date()) {
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ cron: "* * * * *", scheduledTime: at }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

/** What the roll-ups say of one track (UTC days). */
export async function rollupsOf(trackId: string) {
  return await withDb(async (db) => {
    const [track] = await db
      .select({ plays: tracks.plays, artistId: tracks.artistId })
      .from(tracks)
      .where(eq(tracks.id, trackId));
    const daily = await db
      .select({
        day: playCountsDaily.day,
        plays: playCountsDaily.plays,
        listeners: playCountsDaily.listeners,
      })
      .from(playCountsDaily)
      .where(eq(playCountsDaily.trackId, trackId))
      .orderBy(playCountsDaily.day);
    const hourly = await db
      .select({ hour: playCountsHourly.hour, plays: playCountsHourly.plays })
      .from(playCountsHourly)
      .where(eq(playCountsHourly.trackId, trackId))
      .orderBy(playCountsHourly.hour);
    const countries = await db
      .select({ country: playCountriesDaily.country, plays: playCountriesDaily.plays })
      .from(playCountriesDaily)
      .where(eq(playCountriesDaily.trackId, trackId))
      .orderBy(playCountriesDaily.country);
    const artistDaily = await db
      .select({
        day: playArtistDaily.day,
        plays: playArtistDaily.plays,
        listeners: playArtistDaily.listeners,
      })
      .from(playArtistDaily)
      .where(eq(playArtistDaily.artistId, track?.artistId ?? ""))
      .orderBy(playArtistDaily.day);
    return { plays: track?.plays, daily, hourly, countries, artistDaily };
  });
}
