// The requests `neon()` and drizzle's neon-http send to Neon's `POST /sql` (@neondatabase/serverless
// 1.2.0, `execute` in index.mjs), read as Neon's proxy reads them (proxy/src/serverless/
// sql_over_http.rs and json.rs): a JSON `{query, params}` or `{queries: [...]}`, the connection
// string and the options in `Neon-*` headers.
import type { IncomingMessage } from "node:http";

/** Neon's default (`sql_over_http_max_request_size_bytes`). */
const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

/** The Neon-Batch-Isolation-Level values Neon accepts, in SQL. */
const ISOLATION_LEVELS: Record<string, string> = {
  Serializable: "SERIALIZABLE",
  RepeatableRead: "REPEATABLE READ",
  ReadCommitted: "READ COMMITTED",
  ReadUncommitted: "READ UNCOMMITTED",
};

export interface QueryData {
  query: string;
  params: Array<string | null>;
  /** The query's own `arrayMode`, over the Neon-Array-Mode header. */
  arrayMode: boolean | undefined;
}

export interface SqlRequest {
  connection: URL;
  /** One query, or a batch: several in one transaction. */
  payload: QueryData | QueryData[];
  arrayMode: boolean;
  /** The statement that opens a batch's transaction, with the Neon-Batch-* options asked. */
  begin: string;
}

/** A refusal of the request itself (not of Postgres): its HTTP status and message. */
export class SqlRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads and checks one request. The target (host:port of the connection string) is checked here,
 * before anything is dialled: the bridge must never be an open proxy.
 */
export async function readSqlRequest(
  req: IncomingMessage,
  isAllowed: (target: string) => boolean,
): Promise<SqlRequest> {
  if (req.method !== "POST") throw new SqlRequestError(405, "only POST is supported");
  const body = await readBody(req);
  const connection = connectionOf(req.headers["neon-connection-string"]);
  const target = `${connection.hostname}:${connection.port || "5432"}`;
  if (!isAllowed(target)) throw new SqlRequestError(400, `address not allowed: ${target}`);
  if (req.headers["neon-raw-text-output"] !== "true") {
    throw new SqlRequestError(400, "the dev bridge answers only with Neon-Raw-Text-Output: true");
  }
  return {
    connection,
    payload: parsePayload(body),
    arrayMode: req.headers["neon-array-mode"] === "true",
    begin: beginStatement(req),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) {
      throw new SqlRequestError(413, `request is too large (max is ${MAX_REQUEST_BYTES} bytes)`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function connectionOf(header: string | string[] | undefined): URL {
  if (typeof header !== "string" || header === "") {
    throw new SqlRequestError(400, "missing Neon-Connection-String header");
  }
  let url: URL;
  try {
    url = new URL(header);
  } catch {
    throw new SqlRequestError(400, "Neon-Connection-String is not a valid URL");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new SqlRequestError(400, "Neon-Connection-String must be a postgres:// URL");
  }
  return url;
}

function parsePayload(body: string): QueryData | QueryData[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new SqlRequestError(400, "the request body is not JSON");
  }
  if (isObject(json) && Array.isArray(json.queries)) return json.queries.map(queryData);
  return queryData(json);
}

function queryData(value: unknown): QueryData {
  if (!isObject(value) || typeof value.query !== "string") {
    throw new SqlRequestError(400, 'expected {"query": …, "params": […]} or {"queries": […]}');
  }
  const params = value.params ?? [];
  if (!Array.isArray(params)) throw new SqlRequestError(400, "params must be an array");
  const arrayMode = typeof value.arrayMode === "boolean" ? value.arrayMode : undefined;
  return { query: value.query, params: params.map(paramText), arrayMode };
}

/** A JSON parameter as Postgres text, as Neon converts it (json_to_pg_text in json.rs). */
function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return arrayLiteral(value);
  return JSON.stringify(value);
}

/** A JSON array as a Postgres array literal; its strings quoted and escaped as JSON does. */
function arrayLiteral(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (Array.isArray(value)) return `{${value.map(arrayLiteral).join(",")}}`;
  if (isObject(value)) return JSON.stringify(JSON.stringify(value));
  return JSON.stringify(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function beginStatement(req: IncomingMessage): string {
  const modes: string[] = [];
  const level = req.headers["neon-batch-isolation-level"];
  if (typeof level === "string") {
    const sql = ISOLATION_LEVELS[level];
    if (!sql) throw new SqlRequestError(400, "invalid isolation level");
    modes.push(`ISOLATION LEVEL ${sql}`);
  }
  if (req.headers["neon-batch-read-only"] === "true") modes.push("READ ONLY");
  if (req.headers["neon-batch-deferrable"] === "true") modes.push("DEFERRABLE");
  return modes.length > 0 ? `START TRANSACTION ${modes.join(", ")}` : "START TRANSACTION";
}
