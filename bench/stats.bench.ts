// An artist's statistics (GET /artists/me/stats, ADR 0028) on roll-ups seeded for 10 million
// plays: the four statements of one answer, as the Worker builds them
// (worker/src/features/artists/stats/queries.ts), timed by Postgres (EXPLAIN ANALYZE: planning +
// execution, summed over the four), 20 rounds per range. Target: ≤ 20 ms of database time.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { type StatsScope, statsStatements } from "../worker/src/features/artists/stats/queries.ts";
import { connectPg } from "./support/seed.ts";
import { lifecycle, loadLine, startMigratedInfra } from "./support/seed-stack.ts";
import { summarize } from "./support/stats.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
// drizzle-orm is the worker's dependency, not the root's: its SQL is turned into text with it.
const { PgDialect } = createRequire(
  fileURLToPath(new URL("../worker/package.json", import.meta.url)),
)("drizzle-orm/pg-core") as {
  PgDialect: new () => { sqlToQuery(sql: unknown): { sql: string; params: unknown[] } };
};
const dialect = new PgDialect();

const life = await lifecycle("stats");
try {
  const infra = await startMigratedInfra(life, { dbRttMs: 0 });
  const pg = await connectPg(infra.databaseUrl);
  life.defer(() => pg.end());
  console.log(loadLine("at start"));
  const t0 = performance.now();
  const step = async (label: string, text: string) => {
    const started = performance.now();
    const result = await pg.query(text);
    console.log(
      `  seed ${label}: ${result.rowCount ?? 0} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  };
  await pg.query("SELECT setseed(0.28)");
  // 1,000 artists; artist 1 is the big one (100 tracks, every day of the year played), the other
  // 999 have 20 tracks each, played on ~30 random days. 10,000 listeners who like and follow.
  await step(
    "artists",
    `INSERT INTO artists (username, email)
    SELECT 'stats_' || i, 'stats-' || i || '@bench.test' FROM generate_series(1, 1000) i`,
  );
  await step(
    "users",
    `INSERT INTO users (username, email)
    SELECT 'fan_' || i, 'fan-' || i || '@bench.test' FROM generate_series(1, 10000) i`,
  );
  await step(
    "tracks",
    `INSERT INTO tracks (artist_id, title, duration, processing_status, processing_progress)
    SELECT a.id, 'T ' || a.username || ' ' || n, 200, 'READY', 100
    FROM artists a CROSS JOIN LATERAL generate_series(1, CASE WHEN a.username = 'stats_1' THEN 100 ELSE 20 END) n
    WHERE a.username LIKE 'stats_%'`,
  );
  await step(
    "daily plays (big artist)",
    `INSERT INTO play_counts_daily (track_id, day, plays, listeners)
    SELECT t.id, d::date, p, greatest(1, p * 3 / 4)
    FROM tracks t JOIN artists a ON a.id = t.artist_id AND a.username = 'stats_1'
    CROSS JOIN generate_series(current_date - 364, current_date, interval '1 day') d
    CROSS JOIN LATERAL (SELECT (20 + random() * 80)::int AS p) r`,
  );
  await step(
    "daily plays (the others)",
    `INSERT INTO play_counts_daily (track_id, day, plays, listeners)
    SELECT DISTINCT ON (t.id, d) t.id, d, p, greatest(1, p * 3 / 4)
    FROM tracks t JOIN artists a ON a.id = t.artist_id AND a.username <> 'stats_1'
    CROSS JOIN LATERAL (SELECT current_date - (random() * 364)::int AS d, (1 + random() * 30)::int AS p
      FROM generate_series(1, 30)) r
    ORDER BY t.id, d`,
  );
  await step(
    "hourly plays (a day's worth per daily row is not needed: the last day)",
    `INSERT INTO play_counts_hourly (track_id, hour, plays)
    SELECT track_id, (day::timestamp + interval '12 hours') AT TIME ZONE 'UTC', plays FROM play_counts_daily`,
  );
  await step(
    "countries",
    `INSERT INTO play_countries_daily (track_id, day, country, plays)
    SELECT p.track_id, p.day, c, greatest(1, p.plays / 4)
    FROM play_counts_daily p
    CROSS JOIN LATERAL unnest(CASE WHEN p.plays >= 20 THEN ARRAY['FR','DE','US','GB','JP'] ELSE ARRAY['US'] END) c`,
  );
  await step(
    "artist plays and listeners per day",
    `INSERT INTO play_artist_daily (artist_id, day, plays, listeners)
    SELECT t.artist_id, p.day, sum(p.plays), sum(p.listeners) * 2 / 3 FROM play_counts_daily p JOIN tracks t ON t.id = p.track_id
    GROUP BY 1, 2`,
  );
  await step(
    "artist countries per day",
    `INSERT INTO play_artist_countries_daily (artist_id, day, country, plays)
    SELECT t.artist_id, c.day, c.country, sum(c.plays) FROM play_countries_daily c JOIN tracks t ON t.id = c.track_id
    GROUP BY 1, 2, 3`,
  );
  await step(
    "likes",
    `INSERT INTO track_likes (user_id, track_id, created_at)
    SELECT DISTINCT ON (u.id, t.id) u.id, t.id, now() - random() * interval '365 days'
    FROM (SELECT id FROM users ORDER BY random() LIMIT 5000) u
    CROSS JOIN LATERAL (SELECT t.id FROM tracks t JOIN artists a ON a.id = t.artist_id
      WHERE a.username = 'stats_1' ORDER BY random() + (u.id IS NULL)::int LIMIT 5) t
    ON CONFLICT DO NOTHING`,
  );
  await step(
    "follows",
    `INSERT INTO follows (user_id, artist_id, created_at)
    SELECT u.id, a.id, now() - random() * interval '365 days' FROM users u, artists a WHERE a.username = 'stats_1'`,
  );
  await pg.query(
    "UPDATE tracks t SET plays = s.plays FROM (SELECT track_id, sum(plays) AS plays FROM play_counts_daily GROUP BY 1) s WHERE t.id = s.track_id",
  );
  await pg.query("VACUUM ANALYZE");
  const total = await pg.query<{
    plays: string;
    big: string;
    rows: string;
  }>(`SELECT sum(p.plays)::text AS plays,
    sum(p.plays) FILTER (WHERE a.username = 'stats_1')::text AS big, count(*)::text AS rows
    FROM play_counts_daily p JOIN tracks t ON t.id = p.track_id JOIN artists a ON a.id = t.artist_id`);
  console.log(
    `seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${Number(total.rows[0]?.plays).toLocaleString("en")} plays in ${Number(total.rows[0]?.rows).toLocaleString("en")} daily rows; the measured artist ${Number(total.rows[0]?.big).toLocaleString("en")} plays over 100 tracks · ${loadLine("after seeding")}`,
  );

  const big = await pg.query<{
    id: string;
    track: string;
  }>(`SELECT a.id, (SELECT id FROM tracks WHERE artist_id = a.id LIMIT 1) AS track
    FROM artists a WHERE username = 'stats_1'`);
  const artistId = big.rows[0]?.id ?? "";
  const day = (offset: number) =>
    new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
  const scopes: Array<[string, StatsScope]> = [
    ["30 days, every track", { artistId, from: day(29), to: day(0) }],
    ["90 days, every track", { artistId, from: day(89), to: day(0) }],
    ["365 days, every track", { artistId, from: day(364), to: day(0) }],
    ["365 days, one track", { artistId, from: day(364), to: day(0), trackId: big.rows[0]?.track }],
  ];
  for (const [label, scope] of scopes) {
    const statements = statsStatements(scope);
    const perStatement: Record<string, number[]> = {};
    const totals: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let sum = 0;
      for (const [name, statement] of Object.entries(statements)) {
        const query = dialect.sqlToQuery(statement);
        const { rows } = await pg.query<{
          "QUERY PLAN": Array<{ "Planning Time": number; "Execution Time": number }>;
        }>(`EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${query.sql}`, query.params);
        const plan = rows[0]?.["QUERY PLAN"][0];
        const ms = (plan?.["Planning Time"] ?? 0) + (plan?.["Execution Time"] ?? 0);
        perStatement[name] = [...(perStatement[name] ?? []), ms];
        sum += ms;
      }
      totals.push(sum);
    }
    const s = summarize(totals);
    const parts = Object.entries(perStatement)
      .map(([name, samples]) => `${name} ${summarize(samples).p50.toFixed(2)}`)
      .join(", ");
    console.log(
      `stats ${label.padEnd(24)} database time (4 statements) p50=${s.p50.toFixed(2)} p95=${s.p95.toFixed(2)} max=${s.max.toFixed(2)} ms ${s.p95 <= 20 ? "MET" : "MISSED"} (≤ 20 ms) · p50 per statement: ${parts}`,
    );
  }
  console.log(loadLine("at end"));
} finally {
  await life.stopAll();
}
