import type { HttpDatabase } from "@edge-music/db";
import { sql } from "drizzle-orm";
import type { PlayMessage } from "./message.ts";

/** A listener's play of a track counts once per this many seconds. */
export const SAME_PLAY_SECONDS = 600;

/**
 * Counts plays into the roll-ups in ONE round trip (one `db.batch`: one transaction), whatever
 * the number of plays and tracks: a track heard a thousand times a second is one update of its
 * rows per batch, so listeners never wait on a counter row (they never touch it) and the
 * consumer's updates do not serialise on it either. Answers how many plays counted.
 *
 * Which plays count is decided here, in SQL: the track is READY and not private (unlisted
 * tracks count: only those holding the link could report them), and the same listener's play of
 * the same track counts once per 10 minutes (`play_recent`, compared both ways so that a report
 * delivered late still counts when it is 10 minutes from the one that did). The same rule makes
 * a redelivered batch (the queue delivers at least once) count nothing the second time.
 */
export async function countPlays(db: HttpDatabase, plays: PlayMessage[]): Promise<number> {
  const statements = countStatements(db, plays);
  if (statements.length === 0) return 0;
  const results = (await db.batch(
    statements as unknown as [(typeof statements)[number], ...typeof statements],
  )) as unknown as Array<{ rows: Array<{ counted: number }> }>;
  return results.reduce((sum, result) => sum + (result.rows[0]?.counted ?? 0), 0);
}

/** The statements that count `plays`, to send in one batch (with others, if need be). */
export const countStatements = (db: HttpDatabase, plays: PlayMessage[]) =>
  roundsOf(plays).map((round) => countStatement(db, round));

/**
 * The plays in rounds in which each (listener, track) appears at most once (an upsert may not
 * touch one row twice in a statement). Reports of the same listener and track less than 10
 * minutes after the last one kept are dropped here already; the rest (a long outage's inbox, a
 * listener who played a track on repeat for an hour) go to later rounds, in time order.
 */
export function roundsOf(plays: PlayMessage[]): PlayMessage[][] {
  const sorted = [...plays].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const kept = new Map<string, PlayMessage[]>();
  for (const play of sorted) {
    const key = `${play.listener}|${play.trackId}`;
    const earlier = kept.get(key);
    const last = earlier?.at(-1);
    if (last && Date.parse(play.at) - Date.parse(last.at) < SAME_PLAY_SECONDS * 1000) continue;
    if (earlier) earlier.push(play);
    else kept.set(key, [play]);
  }
  const rounds: PlayMessage[][] = [];
  for (const series of kept.values()) {
    series.forEach((play, i) => {
      const round = rounds[i] ?? [];
      round.push(play);
      rounds[i] = round;
    });
  }
  return rounds;
}

function countStatement(db: HttpDatabase, plays: PlayMessage[]) {
  const input = JSON.stringify(
    plays.map((p) => ({ track_id: p.trackId, listener: p.listener, country: p.country, at: p.at })),
  );
  // Every insert reads its rows in key order, so two batches that meet on the same rows take
  // their locks in one order. Days and hours are UTC whatever the session's time zone.
  return db.execute(sql`
    WITH input AS (
      SELECT x.track_id, x.listener, x.country, x.at, t.artist_id,
        (x.at AT TIME ZONE 'UTC')::date AS day,
        date_trunc('hour', x.at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS hour
      FROM jsonb_to_recordset(${input}::jsonb)
        AS x(track_id uuid, listener text, country text, at timestamptz)
      JOIN tracks t ON t.id = x.track_id
      WHERE t.processing_status = 'READY' AND t.visibility <> 'private'
    ),
    counted AS (
      INSERT INTO play_recent AS r (listener_key, track_id, counted_at)
      SELECT listener, track_id, at FROM input ORDER BY listener, track_id
      ON CONFLICT (listener_key, track_id) DO UPDATE
        SET counted_at = greatest(r.counted_at, excluded.counted_at)
        WHERE abs(extract(epoch FROM excluded.counted_at - r.counted_at)) >= ${SAME_PLAY_SECONDS}
      RETURNING listener_key, track_id
    ),
    plays AS (
      SELECT i.* FROM input i
      JOIN counted c ON c.listener_key = i.listener AND c.track_id = i.track_id
    ),
    hourly AS (
      INSERT INTO play_counts_hourly AS h (track_id, hour, plays)
      SELECT track_id, hour, count(*)::int FROM plays GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (track_id, hour) DO UPDATE SET plays = h.plays + excluded.plays
    ),
    new_listeners AS (
      INSERT INTO play_listeners_daily (track_id, day, listener_key)
      SELECT DISTINCT track_id, day, listener FROM plays ORDER BY 1, 2, 3
      ON CONFLICT DO NOTHING
      RETURNING track_id, day
    ),
    daily AS (
      INSERT INTO play_counts_daily AS d (track_id, day, plays, listeners)
      SELECT p.track_id, p.day, p.plays, coalesce(n.listeners, 0)
      FROM (SELECT track_id, day, count(*)::int AS plays FROM plays GROUP BY 1, 2) p
      LEFT JOIN (SELECT track_id, day, count(*)::int AS listeners FROM new_listeners GROUP BY 1, 2) n
        USING (track_id, day)
      ORDER BY 1, 2
      ON CONFLICT (track_id, day) DO UPDATE
        SET plays = d.plays + excluded.plays, listeners = d.listeners + excluded.listeners
    ),
    new_artist_listeners AS (
      INSERT INTO play_artist_listeners_daily (artist_id, day, listener_key)
      SELECT DISTINCT artist_id, day, listener FROM plays ORDER BY 1, 2, 3
      ON CONFLICT DO NOTHING
      RETURNING artist_id, day
    ),
    artist_daily AS (
      INSERT INTO play_artist_daily AS a (artist_id, day, plays, listeners)
      SELECT p.artist_id, p.day, p.plays, coalesce(n.listeners, 0)
      FROM (SELECT artist_id, day, count(*)::int AS plays FROM plays GROUP BY 1, 2) p
      LEFT JOIN (SELECT artist_id, day, count(*)::int AS listeners FROM new_artist_listeners GROUP BY 1, 2) n
        USING (artist_id, day)
      ORDER BY 1, 2
      ON CONFLICT (artist_id, day) DO UPDATE
        SET plays = a.plays + excluded.plays, listeners = a.listeners + excluded.listeners
    ),
    artist_countries AS (
      INSERT INTO play_artist_countries_daily AS ac (artist_id, day, country, plays)
      SELECT artist_id, day, country, count(*)::int FROM plays GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (artist_id, day, country) DO UPDATE SET plays = ac.plays + excluded.plays
    ),
    countries AS (
      INSERT INTO play_countries_daily AS c (track_id, day, country, plays)
      SELECT track_id, day, country, count(*)::int FROM plays GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (track_id, day, country) DO UPDATE SET plays = c.plays + excluded.plays
    ),
    totals AS (
      UPDATE tracks t SET plays = t.plays + n.plays
      FROM (SELECT track_id, count(*) AS plays FROM plays GROUP BY 1) n
      WHERE t.id = n.track_id
    )
    SELECT count(*)::int AS counted FROM plays`);
}
