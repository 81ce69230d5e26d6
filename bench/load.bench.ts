// The whole service under a crowd: LOAD_CLIENTS signed-in users (default 200), each sending its
// next request as soon as the last is answered, for LOAD_SECONDS (default 60), against the local
// stack: the real Worker (wrangler.toml under wrangler, STORAGE_DRIVER=s3), Postgres behind the
// Neon bridge, redis-server, the S3 server, and the real transcoder converting uploads.
// Catalogue: the seeders' (100k READY tracks, 20k artists, 50k playlists, 1M listens; LOAD_SCALE
// shrinks it for a quick run), and READY tracks with real HLS files: a 48 s 320 kbps MP3 uploaded
// through POST /api/v1/tracks and converted by the transcoder, STREAM_TRACKS times.
// Users are registered through the API, each from its own address (the auth limits are not what
// this measures), and given listens, playlists and follows with SQL. The mix (support/load-mix.ts):
// playlist reads, history writes and reads, search, HLS playlists and segments, follows and likes;
// an artist uploads a 30 s MP3 every LOAD_UPLOAD_EVERY seconds (default 15) in the background.
// Driver: support/load.ts (closed loop, Node's fetch): see docs/benchmarks.md for why not autocannon.
// Prints requests/s, p50/p95/p99 and statuses per route (an unexpected status is an error), the
// Worker's log lines of each kind of error, and the memory (VmRSS) of every process at the start,
// at its peak and at the end. Run directly, `--seconds N --clients N` override the variables.
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startStackWorker } from "@edge-music/stack";
import { drive } from "./support/load.ts";
import { registerAccount, registerUsers, renewSessions } from "./support/load-accounts.ts";
import { giveActivity, mixData, streamableTracks } from "./support/load-data.ts";
import { createRecorder } from "./support/load-routes.ts";
import { backgroundUploads, declareRoutes, mixSender, printProblems } from "./support/load-run.ts";
import { stackParts, startTranscoder } from "./support/load-stack.ts";
import { makeSource, waitConverted } from "./support/load-tracks.ts";
import { logLines } from "./support/log-lines.ts";
import { keepPeak, printMemory, sampleParts } from "./support/proc-mem.ts";
import { CATALOGUE, connectPg, scaleSizes, seedCatalogue } from "./support/seed.ts";
import { lifecycle, loadLine, startMigratedInfra } from "./support/seed-stack.ts";

const { values: args } = parseArgs({
  options: { seconds: { type: "string" }, clients: { type: "string" } },
  strict: false,
});
const num = (arg: unknown, env: string, fallback: number) =>
  Number(typeof arg === "string" ? arg : (process.env[env] ?? fallback));
const SECONDS = num(args.seconds, "LOAD_SECONDS", 60);
const CLIENTS = num(args.clients, "LOAD_CLIENTS", 200);
const UPLOAD_EVERY_S = num(undefined, "LOAD_UPLOAD_EVERY", 15);
const SCALE = num(undefined, "LOAD_SCALE", 1);
/** The Worker↔Postgres round trip the stack's bridge adds (the listener far from the database). */
const DB_RTT_MS = num(undefined, "DEV_DB_RTT_MS", 0);
const WARMUP_S = 5;
const STREAM_TRACKS = 3;

const SIZES = scaleSizes(CATALOGUE, SCALE);

const life = await lifecycle("load");
const workerLog = logLines();
const transcoderLog = logLines();
try {
  console.log(
    `${CLIENTS} clients, ${SECONDS} s, an upload every ${UPLOAD_EVERY_S} s; catalogue scale ${SCALE}; db rtt ${DB_RTT_MS} ms`,
  );
  console.log(loadLine("at start"));
  const infra = await startMigratedInfra(life, { dbRttMs: DB_RTT_MS });
  const client = await connectPg(infra.databaseUrl);
  life.defer(() => client.end());
  await seedCatalogue(client, SIZES, console.log);
  console.log(loadLine("after seeding"));

  const worker = await startStackWorker(infra, {
    tmp: life.tmp,
    log: (line) => workerLog.push(line),
  });
  life.defer(worker.stop);
  const transcoderPid = startTranscoder(life, infra, transcoderLog);
  const artist = await registerAccount(worker.url, "artists", "loadartist", "10.78.0.1");
  const hls = await streamableTracks(worker, artist, client, life.tmp, STREAM_TRACKS);
  const uploadSource = await makeSource(join(life.tmp, "sources", "upload-30s.mp3"), 30);

  const registering = performance.now();
  const sessions = await registerUsers(worker.url, CLIENTS);
  console.log(
    `${CLIENTS} users registered in ${((performance.now() - registering) / 1000).toFixed(1)} s`,
  );
  await giveActivity(client, sessions);
  const data = await mixData(client, hls);
  // Fresh tokens (5 minutes) for the run: the slow setup of a busy machine must not make the
  // first seconds of the load a burst of refreshes.
  await renewSessions(worker.url, [artist, ...sessions]);

  const warmup = declareRoutes(createRecorder());
  await drive(Math.min(CLIENTS, 20), WARMUP_S * 1000, mixSender(worker, sessions, data, warmup));
  console.log(
    `warm-up: ${WARMUP_S} s at ${Math.min(CLIENTS, 20)} clients, ${warmup.total().requests} requests, ${warmup.total().errors} errors`,
  );

  const parts = await stackParts(worker, transcoderPid);
  const start = await sampleParts(parts);
  const peak = new Map(start);
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      keepPeak(peak, await sampleParts(parts));
    }
  })();

  const recorder = declareRoutes(createRecorder());
  console.log(`\nload: ${CLIENTS} clients for ${SECONDS} s; ${loadLine("now")}`);
  const cpuBefore = process.cpuUsage();
  const began = performance.now();
  const [, uploads] = await Promise.all([
    drive(CLIENTS, SECONDS * 1000, mixSender(worker, sessions, data, recorder)),
    backgroundUploads(worker, artist, uploadSource, recorder, {
      seconds: SECONDS,
      everySeconds: UPLOAD_EVERY_S,
    }),
  ]);
  const elapsed = (performance.now() - began) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  sampling = false;
  await sampler;
  const end = await sampleParts(parts);
  keepPeak(peak, end);
  console.log(loadLine("after the load"));

  const total = recorder.total();
  console.log(
    `\n${total.requests} requests in ${elapsed.toFixed(1)} s: ${(total.requests / elapsed).toFixed(1)} req/s; ` +
      `errors (unexpected status or no answer) ${total.errors}, of which 5xx or no answer ${total.serverErrors}; ` +
      `bench process (load generator + Neon bridge) ${((cpu.user + cpu.system) / 1e4 / elapsed).toFixed(0)}% of a core`,
  );
  recorder.print();

  const ids = uploads.flatMap((u) => (u.trackId ? [u.trackId] : []));
  const states = await waitConverted(client, ids, 10 * 60_000);
  console.log(`\nbackground uploads: ${uploads.length} sent, ${ids.length} accepted (202)`);
  for (const upload of uploads) {
    const state = upload.trackId ? states.get(upload.trackId) : undefined;
    const ready = state?.doneAt
      ? `${((state.doneAt - upload.at) / 1000).toFixed(1)} s after the answer`
      : "";
    console.log(
      `  ${upload.requestId}: ${upload.status} in ${upload.ms.toFixed(0)} ms → ${state?.status ?? "-"} ${ready} ${state?.error ?? ""}`,
    );
  }
  const failed = [...states.values()].filter((s) => s.status !== "READY").length;

  console.log("\nmemory (VmRSS, /proc/<pid>/status; anon = RssAnon, the processes' own pages):");
  printMemory(parts, start, peak, end);

  console.log("\nanswers that were not expected (the first 5 of each route and status):");
  printProblems(recorder, workerLog, transcoderLog);
  const met = total.errors === 0 && total.serverErrors === 0 && failed === 0;
  console.log(
    `\ntarget zero errors, zero 5xx, every upload READY: ${met ? "MET" : "MISSED"} (${total.errors} errors, ${total.serverErrors} 5xx or no answer, ${failed} uploads not READY)`,
  );
  console.log(loadLine("at the end"));
} finally {
  await life.stopAll();
}
