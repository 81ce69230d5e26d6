// The Subsonic door's catalogue-wide reads on a seeded database (100k READY tracks, 70% on 20k
// albums, of 20k artists; 5% of the tracks and 3% of the albums then made unlisted or private,
// which the door never lists): search3 with an empty query (Symfonium's offline sync, page after
// page), getAlbumList2 and getRandomSongs. Target: ≤ 20 ms database time per search3 page
// (issue 30).
// Database time: the statements the door's methods send (their `reads`, built in Node with the
// Worker's own code and captured), BENCH_N runs each (default 10) over a direct connection, as
// round trips and as server time (planning + execution, EXPLAIN ANALYZE), then the plan of each.
// search3 pages are measured as the Worker reads them: from the start (offset 0), by a seek (the
// page's offset is where this isolate's last page ended: `id > last id`), and with OFFSET (a
// miss: another isolate, a jump), near the middle and at the end of the catalogue.
// Not counted: the credential check that rides in the same batch (two primary-key reads).
import { createDb } from "@edge-music/db/node";
import { CATALOGUE, connectPg, seedCatalogue } from "./support/seed.ts";
import {
  explain,
  printPlan,
  recordStatements,
  timeStatements,
  workerFeature,
} from "./support/seed-sql.ts";
import { lifecycle, loadLine, startMigratedInfra } from "./support/seed-stack.ts";
import { report, summarize } from "./support/stats.ts";

const N = Number(process.env.BENCH_N ?? 10);
// Only the cases whose label holds this text (BENCH_ONLY="search3 albums"), for a quick re-run.
const ONLY = process.env.BENCH_ONLY ?? "";
const TARGET_MS = 20;
const PAGE = 500;

type Db = ReturnType<typeof createDb>["db"];
type Kind = "artist" | "album" | "song";
interface Method {
  args(params: URLSearchParams): unknown;
  reads(deps: { db: Db; now: Date }, args: unknown, userId: unknown): PromiseLike<unknown>[];
}
interface Pages {
  rememberSeek(sweeper: string, kind: Kind, offset: number, after: string, now: Date): void;
  sweeperOf(params: URLSearchParams): string;
}

const life = await lifecycle("subsonic");
try {
  const infra = await startMigratedInfra(life);
  const client = await connectPg(infra.databaseUrl);
  life.defer(() => client.end());
  await seedCatalogue(client, CATALOGUE, console.log);
  await client.query(`UPDATE tracks SET visibility = CASE WHEN random() < 0.5 THEN 'unlisted'
    ELSE 'private' END::visibility WHERE random() < 0.05`);
  await client.query(`UPDATE albums SET visibility = 'private' WHERE random() < 0.03`);
  await client.query("VACUUM ANALYZE tracks, albums, artists");
  console.log(loadLine("after seeding"));

  const { searchMethods } = await workerFeature<{ searchMethods: Record<string, Method> }>(
    "subsonic/search.ts",
  );
  const { albumListMethods } = await workerFeature<{ albumListMethods: Record<string, Method> }>(
    "subsonic/album-lists.ts",
  );
  const pages = await workerFeature<Pages>("subsonic/catalogue-pages.ts");

  const handle = createDb(infra.databaseUrl, { wsProxy: infra.neonWsProxy });
  life.defer(() => handle.close());
  const recorder = recordStatements(handle.pool);
  const db = handle.db;
  const now = new Date();
  const { rows: listed } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM tracks t WHERE processing_status = 'READY'
       AND visibility = 'public' AND (album_id IS NULL OR EXISTS
       (SELECT 1 FROM albums a WHERE a.id = t.album_id AND a.visibility = 'public'))`,
  );
  const songs = listed[0]?.n ?? 0;
  /** The id of the listed song at an offset, as the page before it would have remembered it. */
  const songAt = async (offset: number) =>
    (
      await client.query<{ id: string }>(
        `SELECT t.id FROM tracks t WHERE processing_status = 'READY' AND visibility = 'public'
           AND (album_id IS NULL OR EXISTS (SELECT 1 FROM albums a WHERE a.id = t.album_id
           AND a.visibility = 'public')) ORDER BY t.id OFFSET $1 LIMIT 1`,
        [offset - 1],
      )
    ).rows[0]?.id as string;
  console.log(`${songs} listed songs`);

  const search = (kind: Kind, offset: number) =>
    new URLSearchParams({
      query: '""',
      artistCount: "0",
      albumCount: "0",
      songCount: "0",
      [`${kind}Count`]: `${PAGE}`,
      [`${kind}Offset`]: `${offset}`,
    });
  const middle = Math.floor(songs / 2 / PAGE) * PAGE;
  const end = Math.floor((songs - 1) / PAGE) * PAGE;
  const cases: Array<{
    label: string;
    method: Method;
    params: URLSearchParams;
    seek?: () => Promise<void>;
  }> = [
    {
      label: "search3 songs, offset 0",
      method: searchMethods.search3 as Method,
      params: search("song", 0),
    },
    {
      label: `search3 songs, seek at ${middle}`,
      method: searchMethods.search3 as Method,
      params: search("song", middle),
      seek: async () =>
        pages.rememberSeek(
          pages.sweeperOf(search("song", middle)),
          "song",
          middle,
          await songAt(middle),
          new Date(),
        ),
    },
    {
      label: `search3 songs, seek at ${end} (the last page)`,
      method: searchMethods.search3 as Method,
      params: search("song", end),
      seek: async () =>
        pages.rememberSeek(
          pages.sweeperOf(search("song", end)),
          "song",
          end,
          await songAt(end),
          new Date(),
        ),
    },
    {
      label: `search3 songs, OFFSET ${middle} (a miss)`,
      method: searchMethods.search3 as Method,
      params: search("song", middle + 1),
    },
    {
      label: `search3 songs, OFFSET ${end} (a miss)`,
      method: searchMethods.search3 as Method,
      params: search("song", end + 1),
    },
    {
      label: "search3 albums, offset 0",
      method: searchMethods.search3 as Method,
      params: search("album", 0),
    },
    {
      label: "search3 albums, OFFSET 20000 (a miss, into the singles)",
      method: searchMethods.search3 as Method,
      params: search("album", 20_000),
    },
    {
      label: "search3 artists, offset 0",
      method: searchMethods.search3 as Method,
      params: search("artist", 0),
    },
    {
      label: "search3 artists, OFFSET 10000 (a miss)",
      method: searchMethods.search3 as Method,
      params: search("artist", 10_000),
    },
    ...["newest", "random", "alphabeticalByName", "alphabeticalByArtist", "frequent"].map(
      (type) => ({
        label: `getAlbumList2 ${type}, size 20`,
        method: albumListMethods.getAlbumList2 as Method,
        params: new URLSearchParams({ type, size: "20" }),
      }),
    ),
    {
      label: "getAlbumList2 newest, size 20, offset 5000",
      method: albumListMethods.getAlbumList2 as Method,
      params: new URLSearchParams({ type: "newest", size: "20", offset: "5000" }),
    },
    {
      label: "getRandomSongs, size 50",
      method: albumListMethods.getRandomSongs as Method,
      params: new URLSearchParams({ size: "50" }),
    },
  ];

  console.log(
    `\ndatabase time: the methods' reads, ${N} runs each over a direct connection;\n` +
      "  round trip = the client's wait, server = planning + execution (EXPLAIN ANALYZE)",
  );
  // Only the caller's own lists (recent) read it: none of these.
  const userId = undefined;
  const verdicts: string[] = [];
  for (const { label, method, params, seek } of cases.filter((c) => c.label.includes(ONLY))) {
    await seek?.();
    const reads = method.reads({ db, now }, method.args(params), userId);
    for (const read of reads) await read;
    const statements = recorder.take();
    console.log(`\n${label}: ${statements.length} statement(s)`);
    const { each, total } = await timeStatements(client, statements, N);
    for (const [i, statement] of statements.entries()) {
      report(`  [${i + 1}] server`, each[i]?.server ?? []);
      printPlan(await explain(client, statement), 8);
    }
    report("  all, round trip", total.roundTrip);
    report("  all, server", total.server);
    const p95 = summarize(total.server).p95;
    verdicts.push(
      `${label}: server p95 ${p95.toFixed(2)} ms ${p95 <= TARGET_MS ? "within" : "OVER"}`,
    );
  }
  console.log(
    `\nvs the ${TARGET_MS} ms target (search3 pages; the others are measured for the record):`,
  );
  for (const line of verdicts) console.log(`  ${line}`);
  console.log(loadLine("at the end"));
} finally {
  await life.stopAll();
}
