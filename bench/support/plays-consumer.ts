// The plays queue's consumer, measured: the Worker's own batch statement (worker/src/features/
// plays/count.ts) run from Node through the stack's Neon bridge (the HTTP path the Worker uses,
// with the bench's DEV_DB_RTT_MS), batches of 100 as the queue delivers them, one consumer and
// four at once; then every play on one hot track. Prints plays per second into the roll-ups.
import { createHttpDb } from "@edge-music/db";
import type { Infra } from "@edge-music/stack";
import { countPlays } from "../../worker/src/features/plays/count.ts";
import type { PlayMessage } from "../../worker/src/features/plays/message.ts";
import { connectPg } from "./seed.ts";

const PLAYS = Number(process.env.BENCH_PLAYS ?? 20_000);
const BATCH = 100;
const COUNTRIES = ["FR", "DE", "US", "GB", "JP", "BR", "ES", "IT", "NL", "SE"];

function plays(trackIds: string[], n: number, listeners: number): PlayMessage[] {
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => ({
    v: 1 as const,
    trackId: trackIds[i % trackIds.length] ?? "",
    listener: `u:${(Math.floor(Math.random() * listeners) + 1).toString(16).padStart(32, "0")}`,
    country: COUNTRIES[i % COUNTRIES.length] ?? "XX",
    at: new Date(now - Math.floor(Math.random() * 3_600_000)).toISOString(),
  }));
}

async function run(label: string, infra: Infra, all: PlayMessage[], consumers: number) {
  const db = createHttpDb(infra.pooledDatabaseUrl, { httpEndpoint: infra.neonHttpEndpoint });
  const batches: PlayMessage[][] = [];
  for (let i = 0; i < all.length; i += BATCH) batches.push(all.slice(i, i + BATCH));
  let next = 0;
  let counted = 0;
  let retried = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: consumers }, async () => {
      while (next < batches.length) {
        const batch = batches[next++] ?? [];
        // As the queue would: a batch that fails (a deadlock between consumers) comes again.
        for (;;) {
          try {
            // Not `counted += await …`: that reads `counted` before the await (lost updates).
            const n = await countPlays(db, batch);
            counted += n;
            break;
          } catch {
            retried++;
          }
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `consumer ${label.padEnd(34)} consumers=${consumers} reported=${all.length} counted=${counted} in ${seconds.toFixed(2)} s = ${(all.length / seconds).toFixed(0)} plays/s (${(((seconds * 1000) / batches.length) * consumers).toFixed(1)} ms a batch of ${BATCH}, ${retried} batches retried)`,
  );
}

export async function runConsumerBench(infra: Infra, trackIds: string[]): Promise<void> {
  // Many listeners: nearly every report counts (the 10-minute rule rarely applies).
  await run("spread over 50 tracks", infra, plays(trackIds, PLAYS, 1_000_000), 1);
  await run("spread over 50 tracks", infra, plays(trackIds, PLAYS, 1_000_000), 4);
  const hot = trackIds.slice(0, 1);
  await run("one hot track", infra, plays(hot, PLAYS, 1_000_000), 1);
  await run("one hot track", infra, plays(hot, PLAYS, 1_000_000), 4);
  const pg = await connectPg(infra.databaseUrl);
  try {
    const { rows } = await pg.query<{ plays: string; rows: string }>(
      "SELECT sum(plays)::text AS plays, count(*)::text AS rows FROM play_counts_hourly",
    );
    console.log(`roll-ups: ${rows[0]?.plays} plays in ${rows[0]?.rows} hourly rows`);
  } finally {
    await pg.end();
  }
}
