// Runs inside Cloudflare Workers: nothing Node-only may be imported here (see ./node.ts).
import { neonConfig, Pool } from "@neondatabase/serverless";
import { drizzle, type NeonDatabase } from "drizzle-orm/neon-serverless";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Database = NeonDatabase<Schema>;
/** The `tx` of `db.transaction(async (tx) => …)`. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

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
  const db = drizzle({ client: pool, schema });
  return {
    db,
    pool,
    close: () => {
      closing = true;
      return pool.end();
    },
  };
}
