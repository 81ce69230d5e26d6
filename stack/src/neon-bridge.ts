import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { DelayLine, sleepAtLeast, WSS_HANDSHAKE_ROUND_TRIPS } from "./latency.ts";
import type { LogFn } from "./log.ts";
import { createSqlEndpoint } from "./neon-http-sql.ts";

export interface NeonBridgeHandle {
  /** Value for NEON_WS_PROXY: the driver appends `?address=host:port`. */
  url: string;
  /** Value for NEON_HTTP_ENDPOINT (`neonConfig.fetchEndpoint`): Neon's SQL-over-HTTP endpoint. */
  httpUrl: string;
  port: number;
  /** The round-trip time every exchange with the database is delayed by (0: none). */
  rttMs: number;
  /**
   * Where its count of round trips is read (`GET`: `{ roundTrips, http, wsHandshakes, wsReplies }`);
   * `<statsUrl>/<scope>`: the HTTP queries sent to `<httpUrl>/<scope>` alone.
   */
  statsUrl: string;
  stop(): Promise<void>;
}

/**
 * The round trips clients made through the bridge since it started: an HTTP query is one; a new
 * WebSocket costs the handshakes of a `wss://` connection; then every turn of the conversation
 * (a client's message answered by Postgres) is one. A message Postgres does not answer (the
 * Terminate of a closing connection) costs the client no wait and is not counted.
 */
export interface RoundTrips {
  roundTrips: number;
  http: number;
  wsHandshakes: number;
  wsReplies: number;
}

/**
 * Dev-only stand-in for Neon's proxy, on one port:
 * - the WebSocket proxy (wsproxy protocol: `ws://host:port/v1?address=h:p`, binary frames carry
 *   the raw Postgres wire protocol), for `Pool`/`Client` of `@neondatabase/serverless`;
 * - the SQL-over-HTTP endpoint (`POST http://host:port/sql`), for `neon()` and drizzle's neon-http.
 * It lets the driver reach a local Postgres exactly as it reaches Neon in production. Only the
 * allowed targets are dialled, so the bridge is never an open proxy. With `rttMs`, every exchange
 * costs what it would at that distance: each message takes rttMs/2 each way, a new WebSocket
 * costs the handshakes of a `wss://` connection and an HTTP query one round trip.
 */
export async function startNeonBridge(options: {
  port: number;
  allowedTargets: string[];
  /** Round-trip time to the simulated database (DEV_DB_RTT_MS); 0 or absent: no delay. */
  rttMs?: number;
  log: LogFn;
}): Promise<NeonBridgeHandle> {
  const allowed = new Set(options.allowedTargets);
  const rttMs = options.rttMs ?? 0;
  if (!(rttMs >= 0 && Number.isFinite(rttMs))) throw new Error(`rttMs must be ≥ 0, not ${rttMs}`);
  const waiting = new Set<Duplex>();
  const count: Omit<RoundTrips, "roundTrips"> = { http: 0, wsHandshakes: 0, wsReplies: 0 };
  const total = (): RoundTrips => ({
    ...count,
    roundTrips: count.http + count.wsHandshakes + count.wsReplies,
  });
  const sql = createSqlEndpoint({
    isAllowed: (target) => allowed.has(target),
    oneWayMs: rttMs / 2,
    sleep: sleepAtLeast,
    log: options.log,
  });
  // HTTP queries sent to `/sql/<scope>` are also counted under that scope, so that test files
  // running side by side each read their own count (`/round-trips/<scope>`).
  const byScope = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const [, route, scope, ...rest] = pathOf(req.url).split("/");
    if (route === "sql" && rest.length === 0) {
      count.http++;
      if (scope) byScope.set(scope, (byScope.get(scope) ?? 0) + 1);
      return sql.handle(req, res);
    }
    if (route === "round-trips" && rest.length === 0) {
      const http = byScope.get(scope ?? "") ?? 0;
      const answer = scope ? { http, wsHandshakes: 0, wsReplies: 0, roundTrips: http } : total();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
      return;
    }
    res.writeHead(426, { "content-type": "text/plain" }).end("WebSocket upgrade required\n");
  });
  // Node closes an idle keep-alive connection after 5 s by default, while workerd pools and
  // reuses its connections: a query sent on a pooled connection just as Node closes it fails in
  // the Worker with "Network connection lost" (seen in bursts under the load benchmark). As
  // miniflare does for its own loopback server, idle connections stay open until the client
  // closes them.
  server.keepAliveTimeout = 0;
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    if (pathOf(req.url) !== "/v1") {
      socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
      return;
    }
    // The 101 answer comes when a new wss:// connection would be ready: after TCP, TLS and the
    // upgrade itself.
    waiting.add(socket);
    count.wsHandshakes += WSS_HANDSHAKE_ROUND_TRIPS;
    socket.on("error", () => socket.destroy());
    void sleepAtLeast(WSS_HANDSHAKE_ROUND_TRIPS * rttMs).then(() => {
      waiting.delete(socket);
      if (socket.destroyed) return;
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
    });
  });
  wss.on("connection", (ws: WebSocket, req) => {
    const address = new URL(req.url ?? "/", "http://bridge").searchParams.get("address") ?? "";
    if (!allowed.has(address)) {
      options.log(`refused a connection to ${JSON.stringify(address)}`);
      ws.close(1008, "address not allowed");
      return;
    }
    pipe(ws, address, rttMs / 2, () => count.wsReplies++);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  return {
    url: `ws://127.0.0.1:${options.port}/v1`,
    httpUrl: `http://127.0.0.1:${options.port}/sql`,
    port: options.port,
    rttMs,
    statsUrl: `http://127.0.0.1:${options.port}/round-trips`,
    async stop() {
      for (const socket of waiting) socket.destroy();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await sql.close();
    },
  };
}

function pathOf(url: string | undefined): string {
  return new URL(url ?? "/", "http://bridge").pathname;
}

/**
 * Carries one WebSocket to a TCP connection to Postgres and back. Each direction is a line with
 * a one-way delay: frames, chunks and the close that ends them arrive in the order sent.
 */
function pipe(ws: WebSocket, address: string, oneWayMs: number, onReply: () => void): void {
  const separator = address.lastIndexOf(":");
  const socket = connect({
    host: address.slice(0, separator),
    port: Number(address.slice(separator + 1)),
  });
  socket.setNoDelay(true);
  const toPostgres = new DelayLine(oneWayMs);
  const toClient = new DelayLine(oneWayMs);
  const closeBoth = () => {
    toPostgres.clear();
    toClient.clear();
    socket.destroy();
    if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close();
  };
  // A turn: the client spoke, then Postgres answered (counted once, at its first answer).
  let clientSpoke = false;
  // Frames that arrive before the TCP connection is up are buffered by the socket itself.
  ws.on("message", (data: Buffer | ArrayBuffer | Buffer[]) => {
    clientSpoke = true;
    const chunk = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    toPostgres.push(() => {
      if (!socket.destroyed) socket.write(chunk);
    });
  });
  socket.on("data", (chunk) => {
    if (clientSpoke) {
      clientSpoke = false;
      onReply();
    }
    toClient.push(() => {
      if (ws.readyState === ws.OPEN) ws.send(chunk);
    });
  });
  ws.on("close", () => toPostgres.push(closeBoth));
  ws.on("error", () => toPostgres.push(closeBoth));
  socket.on("close", () => toClient.push(closeBoth));
  socket.on("error", () => toClient.push(closeBoth));
}
