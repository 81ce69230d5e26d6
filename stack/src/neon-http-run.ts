// Runs what Neon's `POST /sql` is asked on Postgres, with `pg`, and shapes the answer as Neon's
// proxy does: every value the text Postgres sent (the driver parses it by dataTypeID).
import pg from "pg";
import type { LogFn } from "./log.ts";
import type { QueryData } from "./neon-http-request.ts";

/** Every value stays the text Postgres sent. */
const TEXT_ONLY: pg.CustomTypesConfig = { getTypeParser: () => (value: string) => value };

/**
 * One small pool per connection string, as Neon's proxy keeps warm connections per endpoint: a
 * request pays no Postgres connection set-up, only its round trip.
 */
export function createPools(log: LogFn) {
  const pools = new Map<string, pg.Pool>();
  return {
    for(connection: URL): pg.Pool {
      let pool = pools.get(connection.href);
      if (!pool) {
        pool = new pg.Pool({
          // Only what Postgres needs: sslmode and the like are about the client's link to Neon,
          // which Neon's proxy ends; the connection behind it is its own.
          host: connection.hostname.replace(/^\[(.*)\]$/, "$1"),
          port: Number(connection.port || 5432),
          user: decodeURIComponent(connection.username),
          password: decodeURIComponent(connection.password),
          database: decodeURIComponent(connection.pathname.slice(1)),
          application_name: connection.searchParams.get("application_name") ?? "neon-bridge",
          max: 4,
          idleTimeoutMillis: 10_000,
          allowExitOnIdle: true,
          types: TEXT_ONLY,
        });
        // An idle connection dropped by the server (a restart in a fault test) must not crash us.
        pool.on("error", (error) =>
          log(`an idle connection of the HTTP path was lost: ${error.message}`),
        );
        pools.set(connection.href, pool);
      }
      return pool;
    },
    async close(): Promise<void> {
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((pool) => pool.end().catch(() => {})));
    },
  };
}

export async function runOne(pool: pg.Pool, data: QueryData, arrayMode: boolean) {
  return await withClient(pool, (client) => run(client, data, arrayMode));
}

/** The statements in one transaction: all of them happen, or none (Neon's batch contract). */
export async function runBatch(
  pool: pg.Pool,
  batch: QueryData[],
  begin: string,
  arrayMode: boolean,
) {
  return await withClient(pool, async (client) => {
    await client.query(begin);
    try {
      const results = [];
      for (const data of batch) results.push(await run(client, data, arrayMode));
      await client.query("COMMIT");
      return results;
    } catch (error) {
      if (error instanceof pg.DatabaseError) await client.query("ROLLBACK").catch(() => {});
      throw error;
    }
  });
}

async function withClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>) {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    return await work(client);
  } catch (error) {
    // A Postgres error leaves the connection usable; anything else (a lost socket) does not.
    if (!(error instanceof pg.DatabaseError)) broken = error as Error;
    throw error;
  } finally {
    // Nor is a connection left inside a transaction (a lone BEGIN) given to the next request.
    client.release(broken ?? (client.getTransactionStatus() !== "I" || undefined));
  }
}

async function run(client: pg.PoolClient, data: QueryData, defaultArrayMode: boolean) {
  const arrayMode = data.arrayMode ?? defaultArrayMode;
  // The extended protocol always, as Neon's proxy: one statement per query, even without
  // parameters (pg would send a parameterless text as a simple, multi-statement query).
  const config: pg.QueryArrayConfig & { queryMode: "extended" } = {
    text: data.query,
    values: data.params,
    rowMode: "array",
    types: TEXT_ONLY,
    queryMode: "extended",
  };
  const result = await client.query(config);
  const fields = result.fields.map((field) => ({
    name: field.name,
    dataTypeID: field.dataTypeID,
    tableID: field.tableID,
    columnID: field.columnID,
    dataTypeSize: field.dataTypeSize,
    dataTypeModifier: field.dataTypeModifier,
    format: "text",
  }));
  const rows = arrayMode
    ? result.rows
    : result.rows.map((row) => Object.fromEntries(fields.map((f, i) => [f.name, row[i]])));
  return {
    fields,
    rows,
    command: result.command,
    rowCount: result.rowCount,
    rowAsArray: arrayMode,
  };
}
