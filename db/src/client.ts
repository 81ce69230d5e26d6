// Runs inside Cloudflare Workers: nothing Node-only may be imported here (see ./node.ts).
import { neon, neonConfig, Pool } from "@neondatabase/serverless";
import {
  createTableRelationsHelpers,
  type ExtractTablesWithRelations,
  extractTablesRelationalConfig,
  type RelationalSchemaConfig,
  type SQL,
} from "drizzle-orm";
import { NeonHttpDatabase, NeonHttpDriver } from "drizzle-orm/neon-http";
import { NeonDatabase, NeonDriver } from "drizzle-orm/neon-serverless";
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";

export type Schema = typeof schema;
/** Over a WebSocket: interactive transactions (`db.transaction(async (tx) => …)`). */
export type Database = NeonDatabase<Schema>;
/** The `tx` of `db.transaction(async (tx) => …)`. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Over Neon's HTTP query path: one request per statement, or per `batch` (one transaction). */
export type HttpDatabase = NeonHttpDatabase<Schema>;
/** What a query helper takes: any of the above. */
export type Queryable = PgDatabase<PgQueryResultHKT, Schema>;

const dialect = new PgDialect();

let relational: RelationalSchemaConfig<ExtractTablesWithRelations<Schema>> | undefined;

/**
 * drizzle's relational view of the schema (what `db.query.*` reads), worked out once per isolate
 * or process. `drizzle({ client, schema })` works it out anew at every call, a walk of every table
 * and relation: about 0.2 ms of CPU (`./run bench drizzle-handle`: 230 µs, 14 µs so) that the Worker
 * paid on every request that touched the database, since each request makes its own handle.
 */
function relationalSchema(): RelationalSchemaConfig<ExtractTablesWithRelations<Schema>> {
  if (!relational) {
    const { tables, tableNamesMap } = extractTablesRelationalConfig<
      ExtractTablesWithRelations<Schema>
    >(schema, createTableRelationsHelpers);
    relational = { fullSchema: schema, schema: tables, tableNamesMap };
  }
  return relational;
}

export interface CreateDbOptions {
  /** Local dev bridge from WebSocket to Postgres TCP, e.g. ws://127.0.0.1:5488/v1. */
  wsProxy?: string;
}

export interface DbHandle {
  db: Database;
  pool: Pool;
  close(): Promise<void>;
}

export function createDb(connectionString: string, options: CreateDbOptions = {}): DbHandle {
  const { wsProxy } = options;
  if (wsProxy) {
    // neonConfig is global to the module, so this applies to every pool in the process; dev and
    // tests only ever talk to one bridge. The driver adds the scheme itself, so the function
    // returns host/path only, and the scheme of the given URL decides TLS.
    const secure = wsProxy.startsWith("wss://");
    const target = wsProxy.replace(/^wss?:\/\//, "");
    neonConfig.wsProxy = (host, port) => `${target}?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = secure;
    // The local bridge speaks plain Postgres behind it: no TLS to pipeline, and the password is
    // sent only when the server asks (any auth method works, trust included; the embedded server
    // asks in clear text on loopback, see stack/src/postgres.ts).
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  }
  const pool = new Pool({ connectionString });
  let closing = false;
  // An idle connection dropped by the server is reported as an "error" event; unhandled, Node
  // would crash the process over a connection no query is using. Once the pool is being closed,
  // sockets torn down with it (workerd reports "Network connection lost") are expected.
  pool.on("error", (err: Error) => {
    if (!closing) console.error("postgres pool error:", err);
  });
  // What drizzle({ client: pool, schema }) builds, with the relational schema worked out once.
  const db = new NeonDatabase<Schema>(
    dialect,
    new NeonDriver(pool, dialect).createSession(relationalSchema()),
    relationalSchema(),
  );
  return {
    db,
    pool,
    close: () => {
      closing = true;
      return pool.end();
    },
  };
}

export interface CreateHttpDbOptions {
  /** Local dev bridge's HTTP SQL endpoint, e.g. http://127.0.0.1:5488/sql (Neon's own otherwise). */
  httpEndpoint?: string;
  /**
   * A statement to run first in the handle's first round trip that it yields one for, in the same
   * transaction: a single statement becomes a batch of two, a batch gets it prepended. Its failure
   * aborts the round trip, so what follows it is neither read nor written (the Worker's session
   * check). Asked again at every round trip until it yields one.
   */
  lead?: () => SQL | undefined;
}

/** What drizzle's neon-http session calls on its client (see drizzle-orm/neon-http/session). */
interface RawClient {
  query(sql: string, params?: unknown[], options?: object): PromiseLike<unknown>;
  transaction(statements: unknown[], options?: object): Promise<unknown[]>;
}

/**
 * The neon client drizzle talks to, with `lead` joined to the first round trip. drizzle calls
 * `query()` for a statement and `transaction()` for a batch of such statements; a statement is
 * sent only when awaited, so it can still join a batch.
 */
function withLead(base: RawClient, lead: NonNullable<CreateHttpDbOptions["lead"]>): RawClient {
  let pending = true;
  // Consumed only when it yields a statement: a round trip made before the caller is known (a
  // public read, or a bug: a query before the guard) must not spend the check of the next ones.
  const take = () => {
    if (!pending) return undefined;
    const statement = lead();
    if (!statement) return undefined;
    pending = false;
    const { sql: text, params } = dialect.sqlToQuery(statement);
    return base.query(text, params);
  };
  class Statement implements PromiseLike<unknown> {
    constructor(readonly inner: PromiseLike<unknown>) {}
    // biome-ignore lint/suspicious/noThenProperty: drizzle awaits what `query()` returns.
    then<A = unknown, B = never>(
      resolve?: ((value: unknown) => A | PromiseLike<A>) | null,
      reject?: ((reason: unknown) => B | PromiseLike<B>) | null,
    ): PromiseLike<A | B> {
      const first = take();
      const sent = first
        ? base.transaction([first, this.inner]).then((results) => results[1])
        : this.inner;
      return sent.then(resolve, reject);
    }
  }
  return {
    query: (sql, params, options) => new Statement(base.query(sql, params, options)),
    async transaction(statements, options) {
      const inner = (statements as Statement[]).map((statement) => statement.inner);
      const first = take();
      if (!first) return await base.transaction(inner, options);
      return (await base.transaction([first, ...inner], options)).slice(1);
    },
  };
}

/**
 * Postgres over Neon's HTTP query path: no connection to open or close, one HTTP request per
 * statement or per batch. No interactive transactions (use `createDb` for those).
 */
export function createHttpDb(
  connectionString: string,
  options: CreateHttpDbOptions = {},
): HttpDatabase {
  const { httpEndpoint, lead } = options;
  // Global to the module like the WebSocket settings above: dev and tests use one bridge.
  if (httpEndpoint) neonConfig.fetchEndpoint = () => httpEndpoint;
  const base = neon(connectionString);
  const client = lead
    ? (withLead(base as unknown as RawClient, lead) as unknown as typeof base)
    : base;
  // What drizzleHttp({ client, schema }) builds, with the relational schema worked out once.
  return new NeonHttpDatabase<Schema>(
    dialect,
    new NeonHttpDriver(client, dialect).createSession(relationalSchema()),
    relationalSchema(),
  );
}
