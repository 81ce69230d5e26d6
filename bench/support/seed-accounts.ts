// Seeded data for accounts registered through the API (seeded users have no password, so a
// benchmark signs in as a fresh account and gives it history, playlists and follows here).
// Runs on the connection that seeded (seed.ts): it uses that session's pg_temp helpers.
import { fillPlaylists, type SqlClient } from "./seed.ts";

/**
 * `count` listens over the last 90 days, spread over `distinct` tracks, the favourites played
 * most: the history endpoint's DISTINCT ON has repeats to fold, as a real history does.
 */
export async function giveListens(
  client: SqlClient,
  userId: string,
  count: number,
  distinct: number,
): Promise<void> {
  await client.query(
    `WITH pool AS MATERIALIZED (
       SELECT row_number() OVER ()::int AS n, id
       FROM (SELECT id FROM pg_temp.bench_tracks ORDER BY random() LIMIT $3) t),
     s AS MATERIALIZED (
       SELECT 1 + floor($3 * power(random(), 1.5))::int AS k,
         now() - random() * interval '90 days' AS ts
       FROM generate_series(1, $2))
     INSERT INTO listening_history (id, user_id, track_id, listened_at)
     SELECT pg_temp.bench_uuidv7(s.ts), $1::uuid, pool.id, s.ts FROM s JOIN pool ON pool.n = s.k`,
    [userId, count, distinct],
  );
}

/** `count` playlists, a fifth of them private, each with 0–30 tracks. */
export async function givePlaylists(
  client: SqlClient,
  userId: string,
  count: number,
): Promise<void> {
  await client.query(
    `WITH s AS MATERIALIZED (
       SELECT pg_temp.bench_title() AS title, random() < 0.8 AS pub,
         now() - random() * interval '1 year' AS ts
       FROM generate_series(1, $2))
     INSERT INTO playlists (user_id, title, is_public, visibility, created_at, updated_at)
     SELECT $1::uuid, title, pub, CASE WHEN pub THEN 'public' ELSE 'private' END::visibility, ts, ts
     FROM s`,
    [userId, count],
  );
  await fillPlaylists(client, "p.user_id = $1", [userId]);
}

/** `count` follows of distinct artists over the last two years. */
export async function giveFollows(client: SqlClient, userId: string, count: number) {
  await client.query(
    `INSERT INTO follows (user_id, artist_id, created_at)
     SELECT $1::uuid, id, now() - random() * interval '2 years'
     FROM (SELECT id FROM pg_temp.bench_artists ORDER BY random() LIMIT $2) a`,
    [userId, count],
  );
}
