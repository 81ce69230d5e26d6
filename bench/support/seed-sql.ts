// Database time of the Worker's own SQL on the seeded database: statements captured from the
// service functions (run in Node on the same driver the Worker uses), timed over a direct
// connection, and `EXPLAIN (ANALYZE, BUFFERS)` summarised: what each plan reads, with which
// index, and which node takes the time.
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { DbHandle } from "@edge-music/db/node";
import type { SqlClient } from "./seed.ts";

type Pool = DbHandle["pool"];

const features = fileURLToPath(new URL("../../worker/src/features/", import.meta.url));

/**
 * A module of the Worker's features (its services run in Node: they import nothing Workers-only).
 * Imported by a computed path so that this package's type check does not take in the Worker's
 * sources, which need the Workers types; the caller states the part it uses as `T`.
 */
export const workerFeature = async <T>(path: string): Promise<T> =>
  (await import(pathToFileURL(join(features, path)).href)) as T;

export interface Statement {
  text: string;
  params: unknown[];
}

/**
 * Records every statement the pool runs, as drizzle hands it to the driver (text and bind
 * parameters): what a logger passed to drizzle would see, without a drizzle instance of our own.
 */
export function recordStatements(pool: Pool): { take(): Statement[] } {
  let seen: Statement[] = [];
  const query = pool.query.bind(pool) as (config: unknown, values?: unknown) => unknown;
  pool.query = ((config: unknown, values?: unknown) => {
    const text = typeof config === "string" ? config : (config as { text: string }).text;
    seen.push({ text, params: Array.isArray(values) ? values : [] });
    return query(config, values);
  }) as Pool["query"];
  return {
    take() {
      const taken = seen;
      seen = [];
      return taken;
    },
  };
}

/** Samples of one statement, or of a sequence's sum, in milliseconds. */
export interface Timings {
  /** Sent and answered over the connection, rows read: what a client waits for. */
  roundTrip: number[];
  /**
   * Planning + execution as the server counts them (EXPLAIN ANALYZE, TIMING OFF): without the
   * client, the socket and sending the rows, which on a busy machine add most of the noise.
   */
  server: number[];
}

export interface TimingOptions {
  /** Unmeasured rounds first (default 10). */
  warmup?: number;
  /** Stop after the round that passes this many milliseconds (at least one measured round). */
  budgetMs?: number;
}

/**
 * Runs the statements in sequence `n` times after the warm-up rounds, each once as is and once
 * under EXPLAIN ANALYZE. Returns the samples of each statement and of their sum.
 */
export async function timeStatements(
  client: SqlClient,
  statements: Statement[],
  n: number,
  { warmup = 10, budgetMs = Number.POSITIVE_INFINITY }: TimingOptions = {},
): Promise<{ each: Timings[]; total: Timings }> {
  const each = statements.map((): Timings => ({ roundTrip: [], server: [] }));
  const total: Timings = { roundTrip: [], server: [] };
  const deadline = performance.now() + budgetMs;
  for (let round = -warmup; round < n; round++) {
    if (round > 0 && performance.now() > deadline) break;
    let roundTrip = 0;
    let server = 0;
    for (const [i, { text, params }] of statements.entries()) {
      const start = performance.now();
      await client.query(text, params);
      const took = performance.now() - start;
      const counted = await serverTime(client, { text, params });
      roundTrip += took;
      server += counted;
      if (round >= 0) {
        each[i]?.roundTrip.push(took);
        each[i]?.server.push(counted);
      }
    }
    if (round >= 0) {
      total.roundTrip.push(roundTrip);
      total.server.push(server);
    }
  }
  return { each, total };
}

async function serverTime(client: SqlClient, { text, params }: Statement): Promise<number> {
  const [plan] = await explainJson(client, "ANALYZE, TIMING OFF, SUMMARY ON", { text, params });
  return (plan?.["Planning Time"] ?? 0) + (plan?.["Execution Time"] ?? 0);
}

interface ExplainOutput {
  Plan: PlanNode;
  "Execution Time": number;
  "Planning Time": number;
}

async function explainJson(
  client: SqlClient,
  options: string,
  { text, params }: Statement,
): Promise<ExplainOutput[]> {
  const { rows } = await client.query<{ "QUERY PLAN": unknown }>(
    `EXPLAIN (${options}, FORMAT JSON) ${text}`,
    params,
  );
  const raw = rows[0]?.["QUERY PLAN"];
  return (typeof raw === "string" ? JSON.parse(raw) : raw) as ExplainOutput[];
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Parent Relationship"?: string;
  "Actual Total Time": number;
  "Actual Rows": number;
  "Actual Loops": number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "Rows Removed by Index Recheck"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

export interface PlanSummary {
  lines: string[];
  executionMs: number;
  planningMs: number;
  /** Relations read by a sequential scan, with the rows the scan returned. */
  seqScans: string[];
  /** Indexes the plan reads. */
  indexes: string[];
  /** Rows each index scan returned (summed over loops). */
  indexRows: Array<{ index: string; rows: number }>;
  /**
   * The node with the most time of its own (children's time taken out). Times are summed over
   * loops, parallel workers included, so they can exceed the execution time.
   */
  dominant: string;
}

const spent = (node: PlanNode) => node["Actual Total Time"] * node["Actual Loops"];

const describe = (node: PlanNode) =>
  [
    node["Node Type"],
    node["Relation Name"] ? ` on ${node["Relation Name"]}` : "",
    node["Index Name"] ? ` using ${node["Index Name"]}` : "",
  ].join("");

export async function explain(client: SqlClient, statement: Statement): Promise<PlanSummary> {
  const [top] = await explainJson(client, "ANALYZE, BUFFERS", statement);
  if (!top) throw new Error("EXPLAIN returned no plan");
  const summary: PlanSummary = {
    lines: [],
    executionMs: top["Execution Time"],
    planningMs: top["Planning Time"],
    seqScans: [],
    indexes: [],
    indexRows: [],
    dominant: "",
  };
  let most = -1;
  const walk = (node: PlanNode, depth: number) => {
    const children = node.Plans ?? [];
    const own = spent(node) - children.reduce((sum, child) => sum + spent(child), 0);
    if (own > most) {
      most = own;
      summary.dominant = `${describe(node)} (${own.toFixed(2)} ms of its own)`;
    }
    if (node["Node Type"] === "Seq Scan") {
      summary.seqScans.push(`${node["Relation Name"]} (${node["Actual Rows"]} rows returned)`);
    }
    const index = node["Index Name"];
    if (index) {
      if (!summary.indexes.includes(index)) summary.indexes.push(index);
      summary.indexRows.push({ index, rows: node["Actual Rows"] * node["Actual Loops"] });
    }
    const buffers = (node["Shared Hit Blocks"] ?? 0) + (node["Shared Read Blocks"] ?? 0);
    const sub = node["Parent Relationship"] === "SubPlan" ? "SubPlan: " : "";
    const removed = (["Index Recheck", "Filter"] as const)
      .map((by) => [by, node[`Rows Removed by ${by}`] ?? 0] as const)
      .filter(([, rows]) => rows > 0)
      .map(([by, rows]) => ` removed by ${by.toLowerCase()}=${rows}`)
      .join("");
    summary.lines.push(
      `${"  ".repeat(depth)}${sub}${describe(node)}  rows=${node["Actual Rows"]}${removed} loops=${node["Actual Loops"]} ${spent(node).toFixed(2)} ms, ${buffers} buffers`,
    );
    for (const child of children) walk(child, depth + 1);
  };
  walk(top.Plan, 0);
  return summary;
}

/** The plan's first `lines` nodes and what it reads, indented under a heading. */
export function printPlan(plan: PlanSummary, lines = 8): void {
  for (const line of plan.lines.slice(0, lines)) console.log(`      ${line}`);
  if (plan.lines.length > lines) console.log(`      … ${plan.lines.length - lines} more nodes`);
  console.log(
    `      execution ${plan.executionMs.toFixed(2)} ms, planning ${plan.planningMs.toFixed(2)} ms; indexes: ${plan.indexes.join(", ") || "none"}; seq scans: ${plan.seqScans.join(", ") || "none"}`,
  );
  console.log(`      most time of its own: ${plan.dominant}`);
}
