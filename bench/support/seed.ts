// A seeded catalogue for the read benchmarks, written with set-based SQL (generate_series, word
// arrays) over one direct connection: a million rows take seconds, not the minutes row-by-row
// inserts would. Deterministic: setseed() fixes every random() of the session.
// The helpers live in the session (seed-session.ts), so everything that uses them
// (seed-accounts.ts) must run on the same connection.
import { createHelpers, type SqlClient } from "./seed-session.ts";

export { connectPg, type SqlClient } from "./seed-session.ts";

export interface SeedSizes {
  users: number;
  artists: number;
  albums: number;
  tracks: number;
  playlists: number;
  /** Share of the playlists that are public. */
  publicShare: number;
  follows: number;
  playlistLikes: number;
  listens: number;
  /** Whether playlists get tracks: the first 500 (public), every other one 0–30. */
  playlistTracks: boolean;
}

/** The catalogue the read benchmarks seed (catalogue, search without listens, load scaled). */
export const CATALOGUE: SeedSizes = {
  users: 10_000,
  artists: 20_000,
  albums: 20_000,
  tracks: 100_000,
  playlists: 50_000,
  publicShare: 0.85,
  follows: 200_000,
  playlistLikes: 100_000,
  listens: 1_000_000,
  playlistTracks: true,
};

/** `sizes` with every count times `scale` (at least 10 of each); shares and flags kept. */
export function scaleSizes(sizes: SeedSizes, scale: number): SeedSizes {
  const scaled = (n: number) => Math.max(10, Math.round(n * scale));
  return {
    ...sizes,
    users: scaled(sizes.users),
    artists: scaled(sizes.artists),
    albums: scaled(sizes.albums),
    tracks: scaled(sizes.tracks),
    playlists: scaled(sizes.playlists),
    follows: scaled(sizes.follows),
    playlistLikes: scaled(sizes.playlistLikes),
    listens: scaled(sizes.listens),
  };
}

export const BIG_PLAYLIST_TRACKS = 500;

export type SeedLog = (line: string) => void;

/** Ordinals 1..n of a table's ids, so that set-based inserts can pick rows by number. */
const numbered = (name: string, table: string, columns = "id", order = "id") =>
  `CREATE TEMP TABLE ${name} AS SELECT row_number() OVER (ORDER BY ${order})::int AS n, ${columns}
   FROM ${table}; ALTER TABLE ${name} ADD PRIMARY KEY (n)`;

/**
 * Fills the playlists `where` selects (a condition on `p`): the first seeded playlist gets
 * BIG_PLAYLIST_TRACKS tracks, every other one 0–30. Tracks are distinct within a playlist: a
 * stride of 7919 (prime, coprime to any count of 2^a·5^b) from a random start.
 */
export async function fillPlaylists(client: SqlClient, where: string, params: unknown[] = []) {
  return client.query(
    `WITH p AS MATERIALIZED (
       SELECT p.id, p.created_at,
         CASE WHEN p.id = (SELECT id FROM pg_temp.bench_playlists WHERE n = 1)
           THEN ${BIG_PLAYLIST_TRACKS} ELSE floor(random() * 31)::int END AS k,
         floor(random() * (SELECT count(*) FROM pg_temp.bench_tracks))::int AS start
       FROM playlists p WHERE ${where})
     INSERT INTO playlist_tracks (playlist_id, track_id, position, added_at)
     SELECT p.id, t.id, j, p.created_at + j * interval '1 hour'
     FROM p CROSS JOIN LATERAL generate_series(0, p.k - 1) j
     JOIN pg_temp.bench_tracks t
       ON t.n = 1 + (p.start + j * 7919) % (SELECT count(*) FROM pg_temp.bench_tracks)`,
    params,
  );
}

export interface Seeded {
  /** The public playlist with BIG_PLAYLIST_TRACKS tracks (when playlistTracks). */
  bigPlaylistId: string;
  seconds: number;
}

export async function seedCatalogue(
  client: SqlClient,
  sizes: SeedSizes,
  log: SeedLog,
): Promise<Seeded> {
  const started = performance.now();
  const step = async (label: string, run: () => Promise<{ rowCount: number | null }>) => {
    const t = performance.now();
    const { rowCount } = await run();
    log(`  ${label.padEnd(28)} ${String(rowCount ?? "").padStart(9)} rows ${ms(t)}`);
  };
  const sql = (text: string) => () => client.query(text);
  const at = (span: string) => `now() - random() * interval '${span}'`;
  await createHelpers(client);
  log("seeding (set-based SQL, setseed 0.4242):");
  await step(
    "users",
    sql(`WITH s AS MATERIALIZED (SELECT i, ${at("3 years")} AS ts FROM generate_series(1, ${sizes.users}) i)
     INSERT INTO users (username, email, created_at, updated_at)
     SELECT 'listener_' || i, 'listener' || i || '@bench.test', ts, ts FROM s`),
  );
  await step(
    "artists",
    sql(`WITH s AS MATERIALIZED (
       SELECT i, pg_temp.bench_handle() AS handle, pg_temp.bench_title() AS bio, ${at("5 years")} AS ts
       FROM generate_series(1, ${sizes.artists}) i),
     d AS (SELECT *, row_number() OVER (PARTITION BY lower(handle) ORDER BY i) AS dup FROM s)
     INSERT INTO artists (username, email, bio, created_at, updated_at)
     SELECT CASE WHEN dup = 1 AND length(handle) >= 3 THEN handle ELSE handle || dup END,
       'artist' || i || '@bench.test', bio, ts, ts FROM d`),
  );
  await client.query(numbered("bench_users", "users"));
  await client.query(numbered("bench_artists", "artists"));
  await seedCatalogueRows(client, sizes, step, at);
  await seedActivity(client, sizes, step, at);
  const [big] = (
    await client.query<{ id: string }>("SELECT id FROM pg_temp.bench_playlists WHERE n = 1")
  ).rows;
  await step("VACUUM (ANALYZE)", sql("VACUUM (ANALYZE)"));
  const seconds = (performance.now() - started) / 1000;
  log(`  seeded in ${seconds.toFixed(1)} s`);
  return { bigPlaylistId: big?.id ?? "", seconds };
}

type Step = (label: string, run: () => Promise<{ rowCount: number | null }>) => Promise<void>;

async function seedCatalogueRows(
  client: SqlClient,
  sizes: SeedSizes,
  step: Step,
  at: (span: string) => string,
) {
  const random = (n: number, skew = 1) => `1 + floor(${n} * power(random(), ${skew}))::int`;
  await step("albums", () =>
    client.query(`WITH s AS MATERIALIZED (
       SELECT ${random(sizes.artists, 1.3)} AS a, pg_temp.bench_title() AS title, ${at("10 years")} AS ts
       FROM generate_series(1, ${sizes.albums}))
     INSERT INTO albums (artist_id, title, released_at, created_at, updated_at)
     SELECT a.id, s.title, s.ts::date, s.ts, s.ts FROM s JOIN pg_temp.bench_artists a ON a.n = s.a`),
  );
  await client.query(numbered("bench_albums", "albums", "id, artist_id"));
  // 70% of the tracks are on an album (and by its artist), the rest singles.
  await step("tracks (READY)", () =>
    client.query(`WITH s AS MATERIALIZED (
       SELECT CASE WHEN random() < 0.7 THEN ${random(sizes.albums)} END AS album,
         ${random(sizes.artists, 1.3)} AS artist, pg_temp.bench_title() AS title,
         120 + random() * 300 AS duration, ${at("3 years")} AS ts
       FROM generate_series(1, ${sizes.tracks}))
     INSERT INTO tracks (artist_id, album_id, title, duration, processing_status,
       processing_progress, processing_finished_at, created_at, updated_at)
     SELECT coalesce(al.artist_id, ar.id), al.id, s.title, s.duration, 'READY', 100, s.ts, s.ts, s.ts
     FROM s JOIN pg_temp.bench_artists ar ON ar.n = s.artist
     LEFT JOIN pg_temp.bench_albums al ON al.n = s.album`),
  );
  await client.query(numbered("bench_tracks", "tracks"));
  await step("playlists", () =>
    client.query(`WITH s AS MATERIALIZED (
       SELECT i, ${random(sizes.users)} AS u, pg_temp.bench_title() AS title,
         i = 1 OR random() < ${sizes.publicShare} AS pub, ${at("3 years")} AS ts, random() AS later
       FROM generate_series(1, ${sizes.playlists}) i)
     INSERT INTO playlists (user_id, title, is_public, visibility, created_at, updated_at)
     SELECT u.id, s.title, s.pub, CASE WHEN s.pub THEN 'public' ELSE 'private' END::visibility,
       s.ts, s.ts + s.later * (now() - s.ts)
     FROM s JOIN pg_temp.bench_users u ON u.n = s.u ORDER BY s.i`),
  );
  // Inserted in order of i, so the big (first) playlist is the first row.
  await client.query(numbered("bench_playlists", "playlists", "id", "ctid"));
  if (sizes.playlistTracks) await step("playlist_tracks", () => fillPlaylists(client, "true"));
}

async function seedActivity(
  client: SqlClient,
  sizes: SeedSizes,
  step: Step,
  at: (span: string) => string,
) {
  const random = (n: number, skew = 1) => `1 + floor(${n} * power(random(), ${skew}))::int`;
  // Popular artists and playlists get most follows and likes; duplicates are dropped.
  const relation = (table: string, target: string, ordinals: string, n: number, count: number) =>
    client.query(`WITH s AS MATERIALIZED (
       SELECT ${random(sizes.users)} AS u, ${random(n, 2)} AS x, ${at("2 years")} AS ts
       FROM generate_series(1, ${count}))
     INSERT INTO ${table} (user_id, ${target}, created_at)
     SELECT u.id, x.id, s.ts FROM s JOIN pg_temp.bench_users u ON u.n = s.u
     JOIN pg_temp.${ordinals} x ON x.n = s.x ON CONFLICT DO NOTHING`);
  await step("follows", () =>
    relation("follows", "artist_id", "bench_artists", sizes.artists, sizes.follows),
  );
  await step("playlist_likes", () =>
    relation(
      "playlist_likes",
      "playlist_id",
      "bench_playlists",
      sizes.playlists,
      sizes.playlistLikes,
    ),
  );
  if (sizes.listens === 0) return;
  // Popular tracks get most listens; ids are UUIDv7 of the listen's time.
  await step("listening_history", () =>
    client.query(`WITH s AS MATERIALIZED (
       SELECT ${random(sizes.users)} AS u, ${random(sizes.tracks, 2)} AS t, ${at("1 year")} AS ts
       FROM generate_series(1, ${sizes.listens}))
     INSERT INTO listening_history (id, user_id, track_id, listened_at)
     SELECT pg_temp.bench_uuidv7(s.ts), u.id, t.id, s.ts
     FROM s JOIN pg_temp.bench_users u ON u.n = s.u JOIN pg_temp.bench_tracks t ON t.n = s.t`),
  );
}

const ms = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
