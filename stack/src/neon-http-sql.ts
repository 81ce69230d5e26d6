// Neon's SQL-over-HTTP endpoint (`POST /sql`) in the dev bridge, for `neon()` and drizzle's
// neon-http pointed at it by `neonConfig.fetchEndpoint`. Answers as Neon's proxy does
// (proxy/src/serverless/sql_over_http.rs): 200 with a result (`{results: [...]}` for a batch), 400
// with the fields of a Postgres error, or a status and `{message}` for a refused request.
import type { IncomingMessage, ServerResponse } from "node:http";
import pg from "pg";
import type { LogFn } from "./log.ts";
import { readSqlRequest, SqlRequestError } from "./neon-http-request.ts";
import { createPools, runBatch, runOne } from "./neon-http-run.ts";

/** Neon's default (`sql_over_http_max_response_size_bytes`). */
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** The keys of a Postgres error in Neon's answer; the driver copies them onto its NeonDbError. */
const ERROR_FIELDS = [
  "severity",
  "code",
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "where",
  "schema",
  "table",
  "column",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
] as const;

export interface SqlEndpoint {
  handle(req: IncomingMessage, res: ServerResponse): void;
  close(): Promise<void>;
}

export function createSqlEndpoint(options: {
  /** Whether a `host:port` may be reached. */
  isAllowed: (target: string) => boolean;
  /** One-way delay: before the query runs, and again before the answer leaves (one round trip). */
  oneWayMs: number;
  sleep: (ms: number) => Promise<void>;
  log: LogFn;
}): SqlEndpoint {
  const pools = createPools(options.log);

  const answer = async (req: IncomingMessage): Promise<{ status: number; body: string }> => {
    try {
      const { connection, payload, arrayMode, begin } = await readSqlRequest(
        req,
        options.isAllowed,
      );
      const pool = pools.for(connection);
      const result = Array.isArray(payload)
        ? { results: await runBatch(pool, payload, begin, arrayMode) }
        : await runOne(pool, payload, arrayMode);
      const json = JSON.stringify(result);
      if (Buffer.byteLength(json) > MAX_RESPONSE_BYTES) {
        throw new SqlRequestError(
          507,
          `response is too large (max is ${MAX_RESPONSE_BYTES} bytes)`,
        );
      }
      return { status: 200, body: json };
    } catch (error) {
      return errorAnswer(error, options.log);
    }
  };

  return {
    handle(req, res) {
      void (async () => {
        await options.sleep(options.oneWayMs);
        const { status, body } = await answer(req);
        await options.sleep(options.oneWayMs);
        res
          .writeHead(status, {
            "content-type": "application/json",
            "access-control-allow-origin": "*",
          })
          .end(body);
      })().catch(() => res.destroy());
    },
    close: () => pools.close(),
  };
}

function errorAnswer(error: unknown, log: LogFn): { status: number; body: string } {
  if (error instanceof SqlRequestError) {
    log(`refused an HTTP query: ${error.message}`);
    return { status: error.status, body: JSON.stringify({ message: error.message }) };
  }
  // A Postgres error, of the query or of connecting (a wrong password): Neon's 400 with its fields.
  if (error instanceof pg.DatabaseError) {
    const fields = Object.fromEntries(ERROR_FIELDS.map((key) => [key, error[key]]));
    return { status: 400, body: JSON.stringify({ message: error.message, ...fields }) };
  }
  const message = error instanceof Error ? error.message : String(error);
  log(`an HTTP query failed: ${message}`);
  return { status: 500, body: JSON.stringify({ message }) };
}
