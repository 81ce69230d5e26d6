// GET /api/v1/search on a seeded catalogue (100k READY tracks, 20k artists, 20k albums, 50k
// playlists, 85% public; titles of 1–5 words from English, French, German, Spanish, Czech,
// Japanese and Chinese lists, common words more often). Target: ≤ 20 ms database time at p95.
// A query mix by shape: 2- and 3-letter prefixes, full words, two-word phrases, typos (a letter
// dropped or doubled in a 5+ letter word), accented words typed without accents, CJK words,
// stop words only.
// (a) Through the real Worker on the local stack, every type at once (four queries in parallel):
//     each shape at concurrency 1, then the whole mix at concurrency 4, BENCH_SECONDS each
//     (default 10).
// (b) Database time per type and shape: the Worker's own SQL (findTracks & co. from
//     worker/src/features/search, run once in Node and captured), every query of the shape in turn,
//     BENCH_N rounds (default 10, fewer past 10 s) over a direct connection, as round trips and
//     as server time (planning + execution, EXPLAIN ANALYZE). EXPLAIN (ANALYZE, BUFFERS) of every
//     query, the slowest of each shape printed (BENCH_PLAN_LINES nodes); sequential scans, and index scans that return the
//     whole table, are listed apart for queries of 3+ characters and of 1–2.
import { createDb } from "@edge-music/db/node";
import { drive } from "./support/load.ts";
import { CATALOGUE, connectPg, type SeedSizes, seedCatalogue } from "./support/seed.ts";
import {
  explain,
  printPlan,
  recordStatements,
  type Statement,
  timeStatements,
  workerFeature,
} from "./support/seed-sql.ts";
import { lifecycle, loadLine, startMigratedInfra, startWorker } from "./support/seed-stack.ts";
import { stripDiacritics } from "./support/seed-words.ts";
import { report, summarize } from "./support/stats.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_N ?? 10);
// Per type and shape: the slowest shapes take a second a query on a busy machine.
const BUDGET_MS = 10_000;
const TARGET_MS = 20;
// Nodes printed of each shape's slowest plan (BENCH_PLAN_LINES=100 for whole plans).
const PLAN_LINES = Number(process.env.BENCH_PLAN_LINES ?? 6);
const LIMIT = 10; // the endpoint's default
const SIZES: SeedSizes = { ...CATALOGUE, listens: 0, playlistTracks: false };

/** Queries by shape, from the seeding's word lists (seed-words.ts): common words and rarer ones. */
const SHAPES: Record<string, string[]> = {
  "prefix 2": ["lo", "ni", "dr", "co", "Hé", "st"],
  "prefix 3": ["lov", "nig", "sum", "cor", "str", "hvě"],
  word: ["love", "night", "symphony", "lumière", "Straße", "corazón"],
  phrase: ["love night", "midnight train", "golden river", "amour soleil", "srdce láska"],
  // A letter dropped (midnight, electric, serenade) or doubled (symphony, paradise, corazon).
  typo: ["midnigt", "electrc", "sernade", "symphonny", "paradisse", "corrazon"],
  unaccented: ["été", "lumière", "Straße", "Träume", "corazón", "hvězda", "Dvořák"].map(
    stripDiacritics,
  ),
  CJK: ["東京", "夜", "花火", "月亮", "青春", "さくら"],
  "stop words": ["the", "of the", "you"],
};

type Db = ReturnType<typeof createDb>["db"];
type Finder = (db: Db, terms: unknown, limit: number) => Promise<unknown[]>;
const TYPES = ["tracks", "artists", "albums", "playlists"] as const;
const FINDER = {
  tracks: "findTracks",
  artists: "findArtists",
  albums: "findAlbums",
  playlists: "findPlaylists",
} as const;

const life = await lifecycle("search");
try {
  console.log(loadLine("at start"));
  const infra = await startMigratedInfra(life);
  const client = await connectPg(infra.databaseUrl);
  life.defer(() => client.end());
  await seedCatalogue(client, SIZES, console.log);
  console.log(loadLine("after seeding"));
  const worker = await startWorker(life, infra);
  const search = (q: string) => fetch(`${worker.url}/api/v1/search?q=${encodeURIComponent(q)}`);

  console.log("\nhits per type (tracks/artists/albums/playlists, limit 10):");
  for (const [shape, queries] of Object.entries(SHAPES)) {
    const hits: string[] = [];
    for (const q of queries) {
      const body = (await (await search(q)).json()) as Record<string, unknown[]>;
      hits.push(`${q} ${TYPES.map((t) => body[t]?.length ?? "?").join("/")}`);
    }
    console.log(`  ${shape}: ${hits.join(", ")}`);
  }

  console.log(`\n(a) through the Worker, all four types; ${loadLine("now")}`);
  const mix = Object.values(SHAPES).flat();
  for (let i = 0; i < 20; i++) await (await search(mix[i % mix.length] ?? "")).arrayBuffer();
  for (const [shape, queries] of Object.entries(SHAPES)) {
    const result = await drive(1, SECONDS * 1000, (i) => search(queries[i % queries.length] ?? ""));
    report(`  ${shape}, c=1 (${statusesOf(result.statuses)})`, result.latencies);
  }
  const all = await drive(4, SECONDS * 1000, (i) => search(mix[i % mix.length] ?? ""));
  report(
    `  whole mix, c=4 (${all.requestsPerSecond.toFixed(0)} req/s, ${statusesOf(all.statuses)})`,
    all.latencies,
  );
  console.log(loadLine("after (a)"));

  const queries =
    await workerFeature<Record<(typeof FINDER)[keyof typeof FINDER], Finder>>("search/queries.ts");
  const { searchTerms } = await workerFeature<{ searchTerms(q: string): unknown }>(
    "search/matching.ts",
  );
  const handle = createDb(infra.databaseUrl, { wsProxy: infra.neonWsProxy });
  life.defer(() => handle.close());
  const recorder = recordStatements(handle.pool);
  /** The one statement the Worker's finder sends for `q`, captured as it runs. */
  const statementOf = async (type: (typeof TYPES)[number], q: string): Promise<Statement> => {
    await queries[FINDER[type]](handle.db, searchTerms(q), LIMIT);
    const [statement, ...more] = recorder.take();
    if (!statement || more.length > 0) throw new Error(`${type} "${q}": not one statement`);
    return statement;
  };
  console.log(
    `\nthe tracks query for "love":\n  ${(await statementOf("tracks", "love")).text.replace(/\s+/g, " ")}`,
  );

  console.log(
    `\n(b) database time per type and shape: ${ROUNDS} rounds of its queries (fewer past ${BUDGET_MS / 1000} s)`,
  );
  // Rows of the table under each index, to tell an index scan that reads the whole table.
  const tableRows = new Map(
    (
      await client.query<{ index: string; rows: number }>(
        `SELECT i.relname AS index, t.reltuples AS rows FROM pg_index x
         JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid`,
      )
    ).rows.map(({ index, rows }) => [index, Number(rows)]),
  );
  const over: string[] = [];
  const seqScans: string[] = [];
  const shortSeqScans: string[] = [];
  for (const type of TYPES) {
    console.log(`${type}:`);
    for (const [shape, texts] of Object.entries(SHAPES)) {
      const statements = [];
      for (const q of texts) statements.push(await statementOf(type, q));
      const { each } = await timeStatements(client, statements, ROUNDS, {
        warmup: 1,
        budgetMs: BUDGET_MS,
      });
      const roundTrip = each.flatMap((timings) => timings.roundTrip);
      const server = each.flatMap((timings) => timings.server);
      report(`  ${shape}, round trip`, roundTrip);
      report(`  ${shape}, server`, server);
      const p95 = Math.max(summarize(roundTrip).p95, summarize(server).p95);
      if (p95 > TARGET_MS) {
        over.push(
          `${type} ${shape} (round trip ${summarize(roundTrip).p95.toFixed(1)}, server ${summarize(server).p95.toFixed(1)})`,
        );
      }
      let slowest: { q: string; plan: Awaited<ReturnType<typeof explain>> } | undefined;
      for (const [i, statement] of statements.entries()) {
        const q = texts[i] ?? "";
        const plan = await explain(client, statement);
        if (!slowest || plan.executionMs > slowest.plan.executionMs) slowest = { q, plan };
        // An index scan that returns (nearly) every row of its table reads it all, as a
        // sequential scan would: a trigram index does for a pattern it extracts no trigram from.
        const whole = plan.indexRows
          .filter(
            ({ index, rows }) => rows >= 0.9 * (tableRows.get(index) ?? Number.POSITIVE_INFINITY),
          )
          .map(({ index, rows }) => `every row of ${index} (${rows})`);
        const scans = [...plan.seqScans, ...whole];
        if (scans.length === 0) continue;
        // Under 3 characters there is no trigram to look up: a scan is expected there.
        ([...q].length >= 3 ? seqScans : shortSeqScans).push(`${type} "${q}": ${scans.join(", ")}`);
      }
      if (slowest) {
        console.log(`    the slowest plan of the shape, "${slowest.q}":`);
        printPlan(slowest.plan, PLAN_LINES);
      }
    }
  }
  console.log(`\np95 over ${TARGET_MS} ms: ${over.join("; ") || "none"}`);
  console.log(
    `sequential or whole-index scans by queries of 3+ characters: ${seqScans.join("; ") || "none"}`,
  );
  console.log(
    `sequential or whole-index scans by queries of 1–2 characters: ${shortSeqScans.join("; ") || "none"}`,
  );
  console.log(loadLine("at the end"));
} finally {
  await life.stopAll();
}

function statusesOf(statuses: Record<number, number>): string {
  return Object.entries(statuses)
    .map(([status, n]) => `${status}×${n}`)
    .join(" ");
}
