import { type SQL, sql } from "drizzle-orm";

/** What one statistics request asks: the artist, a range of UTC days, maybe one track. */
export interface StatsScope {
  artistId: string;
  /** YYYY-MM-DD, inclusive. */
  from: string;
  to: string;
  trackId?: string | undefined;
}

/** How many tracks and countries the answer lists at most. */
export const TOP_TRACKS = 10;
export const TOP_COUNTRIES = 50;

const tracksOf = (s: StatsScope) =>
  s.trackId
    ? sql`select id from tracks where artist_id = ${s.artistId} and id = ${s.trackId}`
    : sql`select id from tracks where artist_id = ${s.artistId}`;

const inRange = (s: StatsScope, column = sql`day`) =>
  sql`${column} between ${s.from}::date and ${s.to}::date`;
/** Timestamps of the range's days, UTC. */
const atInRange = (column: SQL, s: StatsScope) =>
  sql`${column} >= (${s.from}::date)::timestamp AT TIME ZONE 'UTC' and ${column} < (${s.to}::date + 1)::timestamp AT TIME ZONE 'UTC'`;

/**
 * The statements of one statistics answer, read from the roll-ups the plays queue's consumer
 * keeps (ADR 0028) and from likes and follows; sent as one batch (one round trip). Every day of
 * the range is in `days`, with zeros where nothing happened. Listeners: the artist's distinct
 * listeners of the day (`play_artist_daily`), or the track's when one is asked for.
 */
export function statsStatements(s: StatsScope): {
  days: SQL;
  top: SQL;
  countries: SQL;
  track: SQL;
} {
  const mine = tracksOf(s);
  // A whole artist reads its own roll-ups (a row per day, a few per day and country); one track
  // reads the track's.
  const plays = s.trackId
    ? sql`select day, plays, listeners from play_counts_daily
        where track_id = ${s.trackId} and ${inRange(s)}
          and track_id in (select id from tracks where artist_id = ${s.artistId})`
    : sql`select day, plays, listeners from play_artist_daily
        where artist_id = ${s.artistId} and ${inRange(s)}`;
  // Likes: a whole artist's from its day roll-up (kept by triggers, migration 0026), one track's
  // counted from its likes. New followers: the artist's day roll-up.
  const likes = s.trackId
    ? sql`select (created_at at time zone 'UTC')::date as day, count(*)::int as likes
        from track_likes where track_id in (${mine}) and ${atInRange(sql`created_at`, s)} group by 1`
    : sql`select day, likes from artist_likes_daily
        where artist_id = ${s.artistId} and ${inRange(s)}`;
  const days = sql`
    with plays as (${plays}), likes as (${likes}), followers as (
      select day, follows as followers from artist_follows_daily
      where artist_id = ${s.artistId} and ${inRange(s)}
    )
    select to_char(d, 'YYYY-MM-DD') as day,
      coalesce(p.plays, 0) as plays,
      coalesce(p.listeners, 0) as listeners,
      coalesce(l.likes, 0) as likes,
      coalesce(f.followers, 0) as "newFollowers"
    from generate_series(${s.from}::date, ${s.to}::date, interval '1 day') as d
    left join plays p on p.day = d::date
    left join likes l on l.day = d::date
    left join followers f on f.day = d::date
    order by d`;
  const top = sql`
    select t.id, t.title, sum(p.plays)::int as plays, sum(p.listeners)::int as listeners
    from play_counts_daily p join tracks t on t.id = p.track_id
    where p.track_id in (${mine}) and ${inRange(s, sql`p.day`)}
    group by t.id, t.title order by plays desc, t.id limit ${TOP_TRACKS}`;
  const countries = s.trackId
    ? sql`
    select country, sum(plays)::int as plays from play_countries_daily
    where track_id in (${mine}) and ${inRange(s)}
    group by country order by plays desc, country limit ${TOP_COUNTRIES}`
    : sql`
    select country, sum(plays)::int as plays from play_artist_countries_daily
    where artist_id = ${s.artistId} and ${inRange(s)}
    group by country order by plays desc, country limit ${TOP_COUNTRIES}`;
  const track = sql`select count(*)::int as found from (${mine}) as t`;
  return { days, top, countries, track };
}
