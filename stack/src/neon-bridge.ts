import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import type { LogFn } from "./log.ts";

export interface NeonBridgeHandle {
  /** Value for NEON_WS_PROXY: the driver appends `?address=host:port`. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Dev-only stand-in for Neon's WebSocket proxy (wsproxy protocol: `ws://host:port/v1?address=h:p`,
 * binary frames carry the raw Postgres wire protocol). It lets `@neondatabase/serverless` reach a
 * local Postgres exactly as it reaches Neon in production. Only the allowed targets are dialled,
 * so the bridge is never an open proxy.
 */
export async function startNeonBridge(options: {
  port: number;
  allowedTargets: string[];
  log: LogFn;
}): Promise<NeonBridgeHandle> {
  const allowed = new Set(options.allowedTargets);
  const server: Server = createServer((_req, res) => {
    res.writeHead(426, { "content-type": "text/plain" }).end("WebSocket upgrade required\n");
  });
  const wss = new WebSocketServer({ server, path: "/v1" });
  wss.on("connection", (ws, req) => {
    const address = new URL(req.url ?? "/", "http://bridge").searchParams.get("address") ?? "";
    if (!allowed.has(address)) {
      options.log(`refused a connection to ${JSON.stringify(address)}`);
      ws.close(1008, "address not allowed");
      return;
    }
    pipe(ws, address);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  return {
    url: `ws://127.0.0.1:${options.port}/v1`,
    port: options.port,
    async stop() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function pipe(ws: WebSocket, address: string): void {
  const separator = address.lastIndexOf(":");
  const socket = connect({
    host: address.slice(0, separator),
    port: Number(address.slice(separator + 1)),
  });
  socket.setNoDelay(true);
  // Frames that arrive before the TCP connection is up are buffered by the socket itself.
  ws.on("message", (data: Buffer | ArrayBuffer | Buffer[]) => {
    const chunk = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    socket.write(chunk);
  });
  socket.on("data", (chunk) => {
    if (ws.readyState === ws.OPEN) ws.send(chunk);
  });
  const closeBoth = () => {
    socket.destroy();
    if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close();
  };
  ws.on("close", closeBoth);
  ws.on("error", closeBoth);
  socket.on("close", closeBoth);
  socket.on("error", closeBoth);
}
