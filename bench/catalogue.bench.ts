// Reads of a user's own catalogue on a seeded database (1M listens over 10k users, 100k READY
// tracks of 20k artists, 50k playlists with 0–30 tracks and one of 500, 200k follows): history,
// own playlists, one 500-track playlist, followed artists. Target: ≤ 10 ms database time at p95
// per endpoint, plans on indexes.
// (a) Through the real Worker (wrangler.toml, STORAGE_DRIVER=s3) on the local stack, as accounts
//     registered through the API and given seeded data with SQL (seeded users have no password):
//     "light" (100 listens of 60 tracks, 20 playlists, 50 follows) and "heavy" (5,000 listens of
//     1,500 tracks). Concurrency 1 and 4, BENCH_SECONDS (default 10) each.
// (b) Database time: the statements the Worker's services run (captured from the service
//     functions in Node), each endpoint's in sequence BENCH_N times (default 300) over a direct
//     connection, as round trips and as server time (planning + execution under EXPLAIN
//     ANALYZE), then EXPLAIN (ANALYZE, BUFFERS) of each. Not counted: the session lookup every
//     signed-in request makes first (one primary-key read).
import { createDb } from "@edge-music/db/node";
import { drive } from "./support/load.ts";
import { CATALOGUE, connectPg, seedCatalogue } from "./support/seed.ts";
import { giveFollows, giveListens, givePlaylists } from "./support/seed-accounts.ts";
import {
  explain,
  printPlan,
  recordStatements,
  timeStatements,
  workerFeature,
} from "./support/seed-sql.ts";
import {
  type Account,
  lifecycle,
  loadLine,
  registerUser,
  signIn,
  startMigratedInfra,
  startWorker,
} from "./support/seed-stack.ts";
import { report, summarize } from "./support/stats.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const N = Number(process.env.BENCH_N ?? 300);
const TARGET_MS = 10;
const SIZES = CATALOGUE;

type Db = ReturnType<typeof createDb>["db"];
interface Page {
  page: number;
  limit: number;
}
interface Services {
  history: { listHistory(ctx: { db: Db; principal: Principal }, page: Page): Promise<unknown[]> };
  listing: {
    listOwnPlaylists(ctx: PlaylistContext, userId: string, page: Page): Promise<unknown[]>;
    getPlaylist(ctx: PlaylistContext, id: string): Promise<{ tracks: unknown[] }>;
  };
  social: { listFollowing(ctx: { db: Db; principal: Principal }, page: Page): Promise<unknown[]> };
}
interface Principal {
  kind: "user";
  id: string;
  sessionId: string;
}
/** The Worker's request dependencies the playlist reads use (see worker/src/request-deps.ts). */
interface PlaylistContext {
  db: Db;
  storage: unknown;
  log: unknown;
  principal: Principal;
  viewer: Principal;
}

/** One endpoint: its request, who sends it, and the same read through the service in Node. */
interface Endpoint {
  label: string;
  path: string;
  account: Account;
  service(db: Db): Promise<unknown>;
}

const life = await lifecycle("catalogue");
try {
  console.log(loadLine("at start"));
  const infra = await startMigratedInfra(life);
  const client = await connectPg(infra.databaseUrl);
  life.defer(() => client.end());
  const { bigPlaylistId } = await seedCatalogue(client, SIZES, console.log);
  console.log(loadLine("after seeding"));

  const worker = await startWorker(life, infra);
  const light = await registerUser(worker, "light");
  const heavy = await registerUser(worker, "heavy");
  await giveListens(client, light.id, 100, 60);
  await giveListens(client, heavy.id, 5_000, 1_500);
  await givePlaylists(client, light.id, 20);
  await giveFollows(client, light.id, 50);
  await client.query("ANALYZE listening_history, playlists, playlist_tracks, follows");

  const services: Services = {
    history: await workerFeature("history/service.ts"),
    listing: await workerFeature("playlists/service.ts"),
    social: await workerFeature("artists/social/service.ts"),
  };
  const page = { page: 1, limit: 20 };
  const principalOf = (account: Account): Principal => ({
    kind: "user",
    id: account.id,
    sessionId: "",
  });
  const asUser = (db: Db, account: Account): PlaylistContext => ({
    db,
    storage: null,
    log: null,
    principal: principalOf(account),
    viewer: principalOf(account),
  });
  const endpoints: Endpoint[] = [
    {
      label: "history, 100 listens",
      path: "/api/v1/history?page=1&limit=20",
      account: light,
      service: (db) => services.history.listHistory({ db, principal: principalOf(light) }, page),
    },
    {
      label: "history, 5k listens",
      path: "/api/v1/history?page=1&limit=20",
      account: heavy,
      service: (db) => services.history.listHistory({ db, principal: principalOf(heavy) }, page),
    },
    {
      label: "playlists/me, 20 playlists",
      path: "/api/v1/playlists/me",
      account: light,
      service: (db) => services.listing.listOwnPlaylists(asUser(db, light), light.id, page),
    },
    {
      label: "playlists/:id, 500 tracks",
      path: `/api/v1/playlists/${bigPlaylistId}`,
      account: light,
      service: (db) => services.listing.getPlaylist(asUser(db, light), bigPlaylistId),
    },
    {
      label: "artists/me/following, 50",
      path: "/api/v1/artists/me/following",
      account: light,
      service: (db) => services.social.listFollowing({ db, principal: principalOf(light) }, page),
    },
  ];

  console.log(`\n(a) through the Worker, ${SECONDS} s per run; ${loadLine("now")}`);
  for (const endpoint of endpoints) {
    const cookie = await signIn(worker, endpoint.account);
    const get = () => fetch(`${worker.url}${endpoint.path}`, { headers: { cookie } });
    const first = await get();
    const body = (await first.json()) as unknown[] | { tracks: unknown[] };
    const items = Array.isArray(body) ? body.length : body.tracks.length;
    console.log(`GET ${endpoint.path} (${endpoint.label}): ${first.status}, ${items} items`);
    for (let i = 0; i < 20; i++) await (await get()).arrayBuffer();
    for (const concurrency of [1, 4]) {
      const result = await drive(concurrency, SECONDS * 1000, get);
      const statuses = Object.entries(result.statuses).map(([s, n]) => `${s}×${n}`);
      report(
        `  c=${concurrency} (${result.requestsPerSecond.toFixed(0)} req/s, ${statuses.join(" ")})`,
        result.latencies,
      );
    }
  }
  console.log(loadLine("after (a)"));

  console.log(
    `\n(b) database time: the services' statements, ${N} runs each over a direct connection;\n` +
      "    round trip = the client's wait, server = planning + execution (EXPLAIN ANALYZE)",
  );
  const handle = createDb(infra.databaseUrl, { wsProxy: infra.neonWsProxy });
  life.defer(() => handle.close());
  const recorder = recordStatements(handle.pool);
  // The services send some statements as one HTTP batch (`db.batch`); here each statement of a
  // batch runs on the recorded pool in turn, so every one is captured and timed alone.
  const recorded = Object.assign(Object.create(handle.db) as Db, {
    batch: async (queries: PromiseLike<unknown>[]) => {
      const results: unknown[] = [];
      for (const query of queries) results.push(await query);
      return results;
    },
  });
  for (const endpoint of endpoints) {
    await endpoint.service(recorded);
    const statements = recorder.take();
    console.log(`${endpoint.label}: ${statements.length} statement(s)`);
    const { each, total } = await timeStatements(client, statements, N);
    for (const [i, statement] of statements.entries()) {
      console.log(`  [${i + 1}] ${statement.text.replace(/\s+/g, " ")}`);
      report(`  [${i + 1}] round trip`, each[i]?.roundTrip ?? []);
      report(`  [${i + 1}] server`, each[i]?.server ?? []);
      printPlan(await explain(client, statement), 14);
    }
    report("  all statements, round trip", total.roundTrip);
    report("  all statements, server", total.server);
    const [trip, server] = [summarize(total.roundTrip).p95, summarize(total.server).p95];
    const verdict = (p95: number) => `${p95.toFixed(2)} ms ${p95 <= TARGET_MS ? "within" : "OVER"}`;
    console.log(
      `  p95 vs the ${TARGET_MS} ms target: round trip ${verdict(trip)}, server ${verdict(server)}`,
    );
  }
  console.log(loadLine("at the end"));
} finally {
  await life.stopAll();
}
