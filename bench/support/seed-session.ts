// The seeding's connection (pg, directly: no bridge, no pool) and its session helpers. The
// helpers are temporary objects (pg_temp), gone with the connection, so nothing of them remains
// in the database the benchmarks measure.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { LANGUAGES } from "./seed-words.ts";

/** The part of pg's Client used by the benchmarks. */
export interface SqlClient {
  query<R = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>;
  end(): Promise<void>;
}
interface PgModule {
  Client: new (config: { connectionString: string }) => SqlClient & { connect(): Promise<void> };
}

// pg is a dependency of the db package, not of the root: resolve it from there.
const pg = createRequire(fileURLToPath(new URL("../../db/package.json", import.meta.url)))(
  "pg",
) as PgModule;

export async function connectPg(databaseUrl: string): Promise<SqlClient> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return client;
}

/**
 * Session helpers: the word table, a title (1–5 words of one language, common words more
 * often), an ASCII handle for artist usernames (the app allows [A-Za-z0-9_.-] only) and a UUIDv7
 * of a time (48-bit Unix milliseconds over the first 6 bytes of a v4 UUID, then the version
 * nibble set to 0111 and the variant bits to 10; set_bit counts from each byte's low bit).
 */
export async function createHelpers(client: SqlClient): Promise<void> {
  await client.query("SELECT setseed(0.4242)");
  await client.query(`CREATE TEMP TABLE bench_words (
    code text PRIMARY KEY, lo float8, hi float8, sep text, max_words int, words text[])`);
  let lo = 0; // the languages' shares, stacked: a title's language is where random() falls
  for (const language of LANGUAGES) {
    const hi = lo + language.weight;
    await client.query("INSERT INTO pg_temp.bench_words VALUES ($1, $2, $3, $4, $5, $6)", [
      language.code,
      lo,
      hi,
      language.separator,
      language.maxWords,
      language.words,
    ]);
    lo = hi;
  }
  const latin = LANGUAGES.filter((l) => l.separator === " ").reduce((s, l) => s + l.weight, 0);
  const pick = "w.words[1 + floor(cardinality(w.words) * power(random(), 1.5))::int]";
  await client.query(`CREATE FUNCTION pg_temp.bench_title() RETURNS text LANGUAGE sql VOLATILE AS $$
    SELECT CASE WHEN w.code = 'en' AND random() < 0.6 THEN initcap(t) ELSE t END
    FROM pg_temp.bench_words w, (SELECT random() * ${lo} AS r) p,
      LATERAL (SELECT array_to_string(ARRAY(
        SELECT ${pick} FROM generate_series(1, 1 + floor(random() * w.max_words)::int)
      ), w.sep) AS t) title
    WHERE p.r >= w.lo AND p.r < w.hi $$`);
  await client.query(`CREATE FUNCTION pg_temp.bench_handle() RETURNS text LANGUAGE sql VOLATILE AS $$
    SELECT left(array_to_string(ARRAY(
      SELECT regexp_replace(public.unaccent(${pick}), '[^A-Za-z0-9]', '', 'g')
      FROM generate_series(1, 1 + floor(random() * 2)::int)
    ), (ARRAY['', '_', '.', '-'])[1 + floor(random() * 4)::int]), 24)
    FROM pg_temp.bench_words w, (SELECT random() * ${latin} AS r) p
    WHERE p.r >= w.lo AND p.r < w.hi $$`);
  await client.query(`CREATE FUNCTION pg_temp.bench_uuidv7(at timestamptz) RETURNS uuid
    LANGUAGE sql VOLATILE AS $$
    SELECT encode(
      set_bit(set_bit(set_bit(set_bit(set_bit(set_bit(
        overlay(uuid_send(gen_random_uuid())
          placing substring(int8send(floor(extract(epoch FROM at) * 1000)::bigint) FROM 3)
          FROM 1 FOR 6),
        52, 1), 53, 1), 54, 1), 55, 0), 70, 0), 71, 1),
      'hex')::uuid $$`);
}
