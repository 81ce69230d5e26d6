import { artists, type HttpDatabase, tracks, trendingTracks } from "@edge-music/db";
import { and, asc, eq, sql } from "drizzle-orm";
import type { RequestDeps } from "../../../request-deps.ts";
import { listedTrack } from "../../sharing/queries.ts";
import { PUBLIC_TRACK_COLUMNS, toTrackDto } from "../catalogue/queries.ts";
import { TRENDING_MAX, type TrendingTrackView, type TrendingWindow } from "./schema.ts";

/**
 * Each window's days and the half-life of a day's weight, in hours: a day's listeners and likes
 * count for less the older the day is (measured from its middle), so a track whose listeners
 * came yesterday falls below one whose listeners come now.
 */
const WINDOWS: Record<TrendingWindow, { days: number; halfLifeHours: number }> = {
  day: { days: 2, halfLifeHours: 12 },
  week: { days: 7, halfLifeHours: 72 },
};

/** How much a like weighs against a listener. */
const LIKE_WEIGHT = 2;

/**
 * Recomputes one window's ranking into `trending_tracks` (the per-minute cron): READY public
 * tracks scored by Σ over the window's days of (distinct listeners + 2 × likes) × 0.5^(age /
 * half-life). Listeners are per day (`play_counts_daily.listeners`): a network, or a listener,
 * playing a track a thousand times is one listener that day. One batch: the window's old rows
 * go and the new ones come in one transaction, so readers see one ranking or the other.
 */
export function recomputeTrendingStatements(db: HttpDatabase, window: TrendingWindow, now: Date) {
  const { days, halfLifeHours } = WINDOWS[window];
  const at = now.toISOString();
  const since = sql`((${at}::timestamptz at time zone 'UTC')::date - ${days - 1}::int)`;
  const weight = (dayColumn: string) =>
    sql`power(0.5, greatest(0, extract(epoch from ${at}::timestamptz - ((${sql.raw(dayColumn)}::timestamp + interval '12 hours') at time zone 'UTC')) / 3600) / ${halfLifeHours})`;
  return [
    db.delete(trendingTracks).where(eq(trendingTracks.window, window)),
    db.execute(sql`
      insert into trending_tracks ("window", rank, track_id, score, listeners, likes, computed_at)
      with listened as (
        select track_id, sum(listeners)::int as listeners,
          sum(listeners * ${weight("day")}) as weighted
        from play_counts_daily where day >= ${since} group by track_id
      ), liked as (
        select track_id, count(*)::int as likes,
          sum(${weight("(created_at at time zone 'UTC')::date")}) as weighted
        from track_likes where created_at >= (${since})::timestamp at time zone 'UTC' group by track_id
      ), scored as (
        select coalesce(l.track_id, k.track_id) as track_id,
          coalesce(l.listeners, 0) as listeners, coalesce(k.likes, 0) as likes,
          coalesce(l.weighted, 0) + ${LIKE_WEIGHT} * coalesce(k.weighted, 0) as score
        from listened l full join liked k on k.track_id = l.track_id
      )
      select ${window}, row_number() over (order by s.score desc, ${tracks.createdAt} desc, ${tracks.id}),
        s.track_id, s.score, s.listeners, s.likes, ${at}::timestamptz
      from scored s join ${tracks} on ${tracks.id} = s.track_id
      where ${listedTrack} and s.score > 0
      order by s.score desc, ${tracks.createdAt} desc, ${tracks.id}
      limit ${TRENDING_MAX}`),
  ] as const;
}

/** Both windows recomputed in one round trip (the per-minute cron). */
export async function recomputeTrending(db: HttpDatabase, now: Date): Promise<void> {
  await db.batch([
    ...recomputeTrendingStatements(db, "day", now),
    ...recomputeTrendingStatements(db, "week", now),
  ]);
}

/**
 * The window's ranking as the cron last computed it (at most a minute old, then the edge cache's
 * bound). A track made unlisted, private or deleted since is left out at once.
 */
export async function trendingTracksOf(
  ctx: Pick<RequestDeps, "db">,
  window: TrendingWindow,
  limit: number,
): Promise<TrendingTrackView[]> {
  const rows = await ctx.db
    .select({
      ...PUBLIC_TRACK_COLUMNS,
      rank: trendingTracks.rank,
      score: trendingTracks.score,
      listeners: trendingTracks.listeners,
      likes: trendingTracks.likes,
    })
    .from(trendingTracks)
    .innerJoin(tracks, eq(tracks.id, trendingTracks.trackId))
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(and(eq(trendingTracks.window, window), listedTrack))
    .orderBy(asc(trendingTracks.rank))
    .limit(limit);
  return rows.map(({ rank, score, listeners, likes, ...row }) => ({
    ...toTrackDto(row),
    rank,
    score,
    listeners,
    likes,
  }));
}
