// Figures per route of a mixed load: latencies, every status seen, and the answers that were not
// what the route should answer (any unexpected status is an error, a 5xx above all), with
// samples of them (request id, body) to find the Worker's log lines of each.
import { summarize } from "./stats.ts";

/** An answer that was not expected: enough to find it again in the Worker's log. */
export interface BadAnswer {
  route: string;
  /** 0: no answer at all (the connection failed). */
  status: number;
  requestId: string;
  detail: string;
}

interface RouteFigures {
  expect: readonly number[];
  latencies: number[];
  statuses: Map<number, number>;
  errors: number;
}

export interface Recorder {
  /** Declares a route and the statuses it may answer with. */
  route(name: string, expect: readonly number[]): void;
  record(
    name: string,
    status: number,
    ms: number,
    bad?: () => Omit<BadAnswer, "route" | "status">,
  ): void;
  /** Where an answer came from (`x-edge-cache`: hit, stale, miss, bypass, or none). */
  edge(name: string, outcome: string | null): void;
  /** Whether `status` is one `name` may answer with. */
  expected(name: string, status: number): boolean;
  total(): { requests: number; errors: number; serverErrors: number };
  /** One line per route: count, share, p50/p95/p99/max, statuses, errors. */
  print(): void;
  /** The first answers of each kind (route and status) that were not expected. */
  samples(): BadAnswer[];
}

const SAMPLES_PER_KIND = 5;

export function createRecorder(): Recorder {
  const routes = new Map<string, RouteFigures>();
  const edge = new Map<string, Map<string, number>>();
  const samples = new Map<string, BadAnswer[]>();
  const figures = (name: string) => {
    const found = routes.get(name);
    if (!found) throw new Error(`undeclared route ${name}`);
    return found;
  };
  const all = () => [...routes.values()];
  return {
    route(name, expect) {
      routes.set(name, { expect, latencies: [], statuses: new Map(), errors: 0 });
    },
    record(name, status, ms, bad) {
      const route = figures(name);
      route.latencies.push(ms);
      route.statuses.set(status, (route.statuses.get(status) ?? 0) + 1);
      if (route.expect.includes(status)) return;
      route.errors++;
      const kind = `${name} ${status}`;
      const kept = samples.get(kind) ?? [];
      if (kept.length < SAMPLES_PER_KIND && bad) kept.push({ route: name, status, ...bad() });
      samples.set(kind, kept);
    },
    edge(name, outcome) {
      const counts = edge.get(name) ?? new Map<string, number>();
      const key = outcome ?? "none";
      counts.set(key, (counts.get(key) ?? 0) + 1);
      edge.set(name, counts);
    },
    expected: (name, status) => figures(name).expect.includes(status),
    total() {
      const serverErrors = all()
        .flatMap((r) => [...r.statuses])
        .filter(([status]) => status >= 500 || status === 0)
        .reduce((sum, [, n]) => sum + n, 0);
      return {
        requests: all().reduce((sum, r) => sum + r.latencies.length, 0),
        errors: all().reduce((sum, r) => sum + r.errors, 0),
        serverErrors,
      };
    },
    print() {
      const requests = this.total().requests;
      const f = (ms: number) => ms.toFixed(1).padStart(8);
      console.log(
        `${"route".padEnd(44)} ${"n".padStart(7)} share ${"p50".padStart(8)} ${"p95".padStart(8)} ${"p99".padStart(8)} ${"max".padStart(8)} ms  statuses; errors`,
      );
      for (const [name, route] of routes) {
        if (route.latencies.length === 0) {
          console.log(`${name.padEnd(44)} ${"0".padStart(7)}`);
          continue;
        }
        const s = summarize(route.latencies);
        const share = ((100 * s.n) / requests).toFixed(1).padStart(5);
        const statuses = [...route.statuses].map(([status, n]) => `${status || "none"}×${n}`);
        console.log(
          `${name.padEnd(44)} ${String(s.n).padStart(7)} ${share}% ${f(s.p50)} ${f(s.p95)} ${f(s.p99)} ${f(s.max)}     ${statuses.join(" ")}; ${route.errors}`,
        );
      }
      // The edge cache: answers to cacheable requests (anonymous reads, media) that it gave.
      let cacheable = 0;
      let served = 0;
      for (const [name, counts] of edge) {
        const n = (key: string) => counts.get(key) ?? 0;
        const asked = n("hit") + n("stale") + n("miss");
        if (asked === 0) continue;
        cacheable += asked;
        served += n("hit") + n("stale");
        const ratio = ((100 * (n("hit") + n("stale"))) / asked).toFixed(1);
        console.log(
          `edge cache ${name.padEnd(40)} hit ${n("hit")} stale ${n("stale")} miss ${n("miss")}: ${ratio} %`,
        );
      }
      if (cacheable > 0) {
        const ratio = ((100 * served) / cacheable).toFixed(1);
        const share = ((100 * served) / requests).toFixed(1);
        console.log(
          `edge cache overall: ${ratio} % of cacheable answers, ${share} % of all requests`,
        );
      }
    },
    samples: () => [...samples.values()].flat(),
  };
}
