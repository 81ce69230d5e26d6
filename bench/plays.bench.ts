// Plays (ADR 0028). Two figures:
// 1. The listener's path: `POST /history/tracks/{id}` (signed in) and, where it exists, the
//    anonymous `POST /plays`, through the real Worker (wrangler dev) with every Worker↔Postgres
//    exchange DEV_DB_RTT_MS away (default 50): p50/p95 at concurrency 1 and 8. Recording a play
//    must add no round trip to what POST /history cost before (the play goes to the queue after
//    the response).
// 2. The consumer's throughput (BENCH_PLAYS, default 20,000 plays): the queue handler's batch
//    code against Postgres directly (no network delay), plays per second into the roll-ups.
// `BENCH_PART=listener|consumer` runs one of them.
import { randomUUID } from "node:crypto";
import { startStackWorker } from "@edge-music/stack";
import { runConsumerBench } from "./support/plays-consumer.ts";
import { connectPg } from "./support/seed.ts";
import {
  lifecycle,
  loadLine,
  registerUser,
  signIn,
  startMigratedInfra,
} from "./support/seed-stack.ts";
import { summarize } from "./support/stats.ts";

const RTT = Number(process.env.DEV_DB_RTT_MS ?? 50);
const N = Number(process.env.BENCH_N ?? 40);
const PART = process.env.BENCH_PART ?? "all";

const life = await lifecycle("plays");
try {
  const infra = await startMigratedInfra(life, { dbRttMs: RTT });
  console.log(`db rtt ${RTT} ms · ${loadLine("at start")}`);
  const pg = await connectPg(infra.databaseUrl);
  life.defer(() => pg.end());
  const suffix = randomUUID().slice(0, 8);
  const artist = await pg.query<{ id: string }>(
    `INSERT INTO artists (username, email) VALUES ($1, $2) RETURNING id`,
    [`plays_${suffix}`, `plays-${suffix}@bench.test`],
  );
  const artistId = artist.rows[0]?.id;
  const trackIds: string[] = [];
  for (let i = 0; i < 50; i++) {
    const track = await pg.query<{ id: string }>(
      `INSERT INTO tracks (artist_id, title, duration, processing_status, processing_progress)
       VALUES ($1, $2, 200, 'READY', 100) RETURNING id`,
      [artistId, `Play ${i}`],
    );
    trackIds.push(track.rows[0]?.id ?? "");
  }

  if (PART === "all" || PART === "listener") {
    const worker = await startStackWorker(infra, { tmp: life.tmp });
    life.defer(worker.stop);
    const api = `${worker.url}/api/v1`;
    const account = await registerUser(worker, "plays");
    const cookie = await signIn(worker, account);
    const routes: Array<{ label: string; run: (i: number) => Promise<Response> }> = [
      {
        label: "POST /history/tracks/{id} (signed in)",
        run: (i) =>
          fetch(`${api}/history/tracks/${trackIds[i % trackIds.length]}`, {
            method: "POST",
            headers: { cookie, origin: worker.url },
          }),
      },
      {
        label: "POST /plays (anonymous)",
        run: (i) =>
          fetch(`${api}/plays`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              origin: worker.url,
              // One network per request: the per-network limit measures nothing here.
              "cf-connecting-ip": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
            },
            body: JSON.stringify({ trackId: trackIds[i % trackIds.length] }),
          }),
      },
    ];
    let i = 0;
    for (const route of routes) {
      const probe = await route.run(i++);
      await probe.arrayBuffer();
      if (probe.status === 404 && route.label.includes("/plays")) {
        console.log(`${route.label.padEnd(40)} not served (404): skipped`);
        continue;
      }
      for (const concurrency of [1, 8]) {
        const samples: number[] = [];
        const statuses = new Map<number, number>();
        let done = 0;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (done < N) {
              done++;
              const start = performance.now();
              const answer = await route.run(i++);
              await answer.arrayBuffer();
              samples.push(performance.now() - start);
              statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            }
          }),
        );
        const s = summarize(samples);
        const codes = [...statuses].map(([code, n]) => `${n}×${code}`).join(" ");
        console.log(
          `${route.label.padEnd(40)} c=${concurrency} n=${s.n} p50=${s.p50.toFixed(1)} p95=${s.p95.toFixed(1)} ms (${codes})`,
        );
      }
    }
  }

  if (PART === "all" || PART === "consumer") {
    await runConsumerBench(infra, trackIds);
  }
  console.log(loadLine("at end"));
} finally {
  await life.stopAll();
}
