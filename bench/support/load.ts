// A closed-loop load generator: `concurrency` clients, each sending its next request as soon as
// the previous answer is read, for a fixed time. Node's fetch keeps connections alive.

export interface LoadResult {
  /** Milliseconds from sending a request to having read its whole answer. */
  latencies: number[];
  requestsPerSecond: number;
  /** How many answers had each status: the figures mean nothing if these are not as expected. */
  statuses: Record<number, number>;
}

export async function drive(
  concurrency: number,
  durationMs: number,
  send: (i: number) => Promise<Response>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  const client = async () => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      const response = await send(next++);
      await response.arrayBuffer();
      latencies.push(performance.now() - sent);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsed = performance.now() - start;
  return { latencies, requestsPerSecond: (latencies.length * 1000) / elapsed, statuses };
}
