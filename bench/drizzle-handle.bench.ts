// The CPU a request spends making its database handle: createHttpDb (db/src/client.ts), which the
// Worker calls once per request that reads or writes, against what drizzle({ client, schema })
// costs when it works out the relational schema anew at every call (what createHttpDb did before).
// No database is reached: making a handle sends nothing. Prints µs per handle, best of five rounds
// of BENCH_N handles (default 2,000) each, in this process (Node, V8 as in workerd).
import { createHttpDb } from "@edge-music/db";
import * as schema from "@edge-music/db/schema";
import { neon } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-http";

const N = Number(process.env.BENCH_N ?? 2000);
const URL = "postgres://bench:bench@127.0.0.1:5432/bench";

function best(name: string, make: () => unknown): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    for (let i = 0; i < N; i++) make();
    fastest = Math.min(fastest, ((performance.now() - started) * 1000) / N);
  }
  console.log(`${name.padEnd(44)} ${fastest.toFixed(1).padStart(7)} µs per handle`);
  return fastest;
}

const client = neon(URL);
const before = best("drizzle({ client, schema }) at every call", () => drizzle({ client, schema }));
const now = best("createHttpDb (relational schema made once)", () => createHttpDb(URL));
console.log(`saved per request: ${(before - now).toFixed(1)} µs (${N} handles a round)`);
