import { inject } from "vitest";
import type { Bindings } from "../../src/env.ts";
import { testBindings } from "./env.ts";

/**
 * A bridge of the round-trip suites' own, started by the global setup: it counts the round trips
 * between the Worker and Postgres (one HTTP query or batch is one; the Worker
 * reaches Postgres no other way). `countingEnv` points a request's bindings at it, under a scope
 * of this test file's own: files that run side by side do not count each other's queries.
 */
const counting = inject("infra").countingBridge;
if (!counting) throw new Error("the global setup starts no counting bridge");
const { neonHttpEndpoint, roundTripsUrl } = counting;
const scope = crypto.randomUUID();

export const countingEnv: Bindings = testBindings({
  NEON_HTTP_ENDPOINT: `${neonHttpEndpoint}/${scope}`,
});

/** Round trips of this file counted so far. */
export async function tripsSoFar(): Promise<number> {
  const answer = await fetch(`${roundTripsUrl}/${scope}`);
  return ((await answer.json()) as { roundTrips: number }).roundTrips;
}
