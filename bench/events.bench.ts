// Live conversion status (GET /tracks/{id}/events, Server-Sent Events) held by many listeners at
// once on the local stack: the real Worker (wrangler dev), Postgres behind the Neon bridge with
// DEV_DB_RTT_MS of simulated distance (default 50), Redis. BENCH_LISTENERS listeners (default
// 200) over BENCH_TRACKS tracks (default 20) of each of BENCH_ARTISTS artists (default 1: one
// artist opening them all, as an abuser would) connect at once; then, while they are held, each
// track's state is published BENCH_ROUNDS times (default 5) over BENCH_HOLD_S seconds (default
// 20) as the transcoder publishes it, then nothing for 16 s (a heartbeat is due after 15 s of
// quiet), then READY.
// Figures: statuses of the connections (the caps refuse some with 429); time to the first event
// per admitted listener; delay from publish to arrival per delivery; database transactions
// during the hold (pg_stat_database: the periodic checks); Redis connections (all, and the
// listeners' by name in CLIENT LIST); workerd's memory; heartbeats seen; listeners ended at
// READY. Asserts nothing.

import { workerProcessId } from "@edge-music/stack";
import { type TrackState, trackStateCommands } from "../contracts/src/index.ts";
import { connectRedis } from "../transcoder/src/io/redis.ts";
import { LISTENER_CONNECTION_NAME } from "../worker/src/connections/track-events.ts";
import { childProcesses } from "./support/proc-cpu.ts";
import { memoryOf } from "./support/proc-mem.ts";
import { connectPg } from "./support/seed-session.ts";
import { lifecycle, loadLine, startMigratedInfra, startWorker } from "./support/seed-stack.ts";
import { summarize } from "./support/stats.ts";

const RTT = Number(process.env.DEV_DB_RTT_MS ?? 50);
const LISTENERS = Number(process.env.BENCH_LISTENERS ?? 200);
const TRACKS = Number(process.env.BENCH_TRACKS ?? 20);
const ARTISTS = Number(process.env.BENCH_ARTISTS ?? 1);
const HOLD_S = Number(process.env.BENCH_HOLD_S ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const ms = (n: number) => `${n.toFixed(1)} ms`;
const line = (label: string, samples: number[]) => {
  const s = summarize(samples);
  console.log(`${label.padEnd(40)} n=${s.n} p50=${ms(s.p50)} p95=${ms(s.p95)} max=${ms(s.max)}`);
};

interface Listener {
  /** The status of its connection: 200, or a refusal (429 past a cap). */
  status?: number;
  firstEventMs?: number;
  /** Arrival time of each event, by its progress (READY as 100). */
  arrivals: Map<number, number>;
  heartbeats: number;
  ended: boolean;
}

const life = await lifecycle("events");
try {
  const infra = await startMigratedInfra(life, { dbRttMs: RTT });
  const worker = await startWorker(life, infra);
  const redis = connectRedis(infra.redisUrl, { blocking: false });
  life.defer(async () => redis.disconnect());
  const sql = await connectPg(infra.databaseUrl);
  life.defer(() => sql.end());
  console.log(
    `db rtt ${RTT} ms · ${LISTENERS} listeners on ${TRACKS} tracks of each of ${ARTISTS} artist(s) · ${loadLine("at start")}`,
  );

  // ARTISTS artists, signed in, each with TRACKS tracks converting.
  const artists: Array<{ cookie: string; trackIds: string[] }> = [];
  for (let a = 0; a < ARTISTS; a++) {
    const suffix = crypto.randomUUID().slice(0, 8);
    const artist = { email: `sse-${suffix}@bench.test`, password: `pw-${crypto.randomUUID()}` };
    const register = await fetch(`${worker.url}/api/v1/artists/auth/register`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "cf-connecting-ip": `10.9.${Math.floor(a / 250)}.${(a % 250) + 2}`,
      },
      body: JSON.stringify({ username: `sse_${suffix}`, ...artist }),
    });
    if (register.status !== 201) throw new Error(`register: ${register.status}`);
    const { id: artistId } = (await register.json()) as { id: string };
    const cookie = (
      register.headers.getSetCookie().find((c) => c.startsWith("access_token=")) ?? ""
    ).split(";")[0];
    const { rows } = await sql.query<{ id: string }>(
      `insert into tracks (artist_id, title, processing_status, processing_attempts)
       select $1, 'Live ' || n, 'PROCESSING', 1 from generate_series(1, $2) n returning id`,
      [artistId, TRACKS],
    );
    artists.push({ cookie: cookie ?? "", trackIds: rows.map((r) => r.id) });
  }
  const trackIds = artists.flatMap((a) => a.trackIds);

  const workerd = await childProcesses(workerProcessId(worker), "workerd");
  const rssBefore = (await memoryOf(workerd)).rssKb;
  const redisClients = async () =>
    Number(/connected_clients:(\d+)/.exec(await redis.info("clients"))?.[1] ?? 0);
  const clientsBefore = await redisClients();
  const listenerConnections = async () =>
    ((await redis.client("LIST")) as string)
      .split("\n")
      .filter((entry) => entry.includes(` name=${LISTENER_CONNECTION_NAME} `)).length;

  // Connect everyone at once.
  const listeners: Listener[] = [];
  const decoder = new TextDecoder();
  const started = performance.now();
  const done = Array.from({ length: LISTENERS }, async (_, i) => {
    const listener: Listener = { arrivals: new Map(), heartbeats: 0, ended: false };
    listeners.push(listener);
    const artist = artists[i % ARTISTS];
    const trackId = artist?.trackIds[Math.floor(i / ARTISTS) % TRACKS];
    const response = await fetch(`${worker.url}/api/v1/tracks/${trackId}/events`, {
      headers: { cookie: artist?.cookie ?? "" },
    });
    listener.status = response.status;
    if (response.status !== 200 || !response.body) {
      await response.arrayBuffer();
      return;
    }
    let buffer = "";
    for await (const chunk of response.body) {
      const now = performance.now();
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        if (block.startsWith(":")) {
          listener.heartbeats++;
          continue;
        }
        const data = block.split("\n").find((l) => l.startsWith("data: "));
        const state = JSON.parse(data?.slice(6) ?? "{}") as TrackState;
        listener.firstEventMs ??= now - started;
        listener.arrivals.set(state.processingProgress, now);
      }
    }
    listener.ended = true;
  });
  const admitted = () => listeners.filter((l) => l.status === 200);
  const connected = async () => {
    while (
      listeners.filter((l) => l.firstEventMs !== undefined || (l.status ?? 200) !== 200).length <
      LISTENERS
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await Promise.race([connected(), Promise.all(done)]);
  const statuses = new Map<number, number>();
  for (const l of listeners) statuses.set(l.status ?? 0, (statuses.get(l.status ?? 0) ?? 0) + 1);
  console.log(
    `${LISTENERS} listeners of ${ARTISTS} artist(s) answered after ${ms(performance.now() - started)}: ${[...statuses].map(([status, n]) => `${n} × ${status}`).join(", ")}`,
  );
  line(
    "time to the first event",
    admitted().map((l) => l.firstEventMs ?? 0),
  );

  // Hold: rounds of progress spread over the hold, then a quiet spell longer than the heartbeat.
  // Database transactions are counted from after the connections to after the quiet spell.
  // Backends report their counts when idle, within PGSTAT_IDLE_INTERVAL (10 s): wait that out.
  const settleStats = () => new Promise((r) => setTimeout(r, 11_000));
  const transactions = async () => {
    const { rows: stat } = await sql.query<{ n: string }>(
      "select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()",
    );
    return Number(stat[0]?.n ?? 0);
  };
  await settleStats();
  const xactBefore = await transactions();
  const clientsHeld = await redisClients();
  const listenersHeld = await listenerConnections();
  const rssHeld = (await memoryOf(workerd)).rssKb;
  /** Every track's state, as the transcoder publishes it, in one pipeline (all at one instant). */
  const publishAll = async (status: TrackState["processingStatus"], progress: number) => {
    const batch = redis.pipeline();
    for (const trackId of trackIds) {
      const state: TrackState = {
        processingStatus: status,
        processingProgress: progress,
        processingError: null,
        processingAttempts: 1,
      };
      for (const [command = "", ...args] of trackStateCommands(trackId, state)) {
        batch.call(command, ...args);
      }
    }
    await batch.exec();
  };
  const published = new Map<number, number>();
  for (let round = 1; round <= ROUNDS; round++) {
    await new Promise((r) => setTimeout(r, (HOLD_S * 1000) / (ROUNDS + 1)));
    const progress = round * 10;
    published.set(progress, performance.now());
    await publishAll("PROCESSING", progress);
  }
  const quietS = 16;
  await new Promise((r) => setTimeout(r, quietS * 1000));
  await settleStats();
  const xactAfter = await transactions();
  const rssPeak = (await memoryOf(workerd)).rssKb;

  // The end: READY for every track; every stream should end.
  published.set(100, performance.now());
  await publishAll("READY", 100);
  await Promise.race([Promise.all(done), new Promise((r) => setTimeout(r, 10_000))]);

  const delays: number[] = [];
  let missing = 0;
  for (const listener of admitted()) {
    for (const [progress, at] of published) {
      const arrived = listener.arrivals.get(progress);
      if (arrived === undefined) missing++;
      else delays.push(arrived - at);
    }
  }
  line("publish → arrival, every delivery", delays);
  console.log(`deliveries missing: ${missing} of ${admitted().length * published.size}`);
  console.log(
    `database transactions while ${admitted().length} listeners were held ${HOLD_S + quietS + 11} s (${ROUNDS} rounds × ${TRACKS} tracks published, then ${quietS} s of quiet): ${xactAfter - xactBefore - 1} (the count's own query excluded)`,
  );
  console.log(
    `Redis connections: ${clientsBefore} before, ${clientsHeld} while held (${listenersHeld} named ${LISTENER_CONNECTION_NAME}), ${await redisClients()} after the end (${await listenerConnections()} named)`,
  );
  console.log(
    `workerd RSS: ${(rssBefore / 1024).toFixed(0)} MiB before, ${(rssHeld / 1024).toFixed(0)} MiB with ${LISTENERS} listeners, ${(rssPeak / 1024).toFixed(0)} MiB after the rounds`,
  );
  const heartbeats = admitted().map((l) => l.heartbeats);
  console.log(
    `heartbeats per listener: min ${Math.min(...heartbeats)}, max ${Math.max(...heartbeats)} · streams ended at READY: ${admitted().filter((l) => l.ended).length} of ${admitted().length}`,
  );
  console.log(loadLine("at the end"));
} finally {
  await life.stopAll();
}
