import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** What the proxy does with one request. */
export type FaultAction = "pass" | "error" | "hang";

export interface SeenRequest {
  method: string;
  /** The path, decoded (`/<bucket>/<key>`), without the query. */
  path: string;
  action: FaultAction;
  /** The whole answer was written to the client (not cut off by the client or the upstream). */
  answered: boolean;
}

/** Decides each request's fate in arrival order; `pass` for anything it does not target. */
export type FaultRule = (request: { method: string; path: string }) => FaultAction;

export interface FaultProxy {
  url: string;
  /** Every request so far, with what was done to it. */
  seen: SeenRequest[];
  setRule(rule: FaultRule): void;
  stop(): Promise<void>;
}

/** Fails (or holds) the first `times` requests that `match` picks, then lets them through. */
export function failFirst(
  times: number,
  match: (request: { method: string; path: string }) => boolean,
  action: Exclude<FaultAction, "pass"> = "error",
): FaultRule {
  let hit = 0;
  return (req) => (match(req) && hit++ < times ? action : "pass");
}

/** The first rule that does something to a request wins. */
export function firstOf(...rules: FaultRule[]): FaultRule {
  return (req) => {
    for (const rule of rules) {
      const action = rule(req);
      if (action !== "pass") return action;
    }
    return "pass";
  };
}

const INTERNAL_ERROR =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InternalError</Code>' +
  "<Message>We encountered an internal error. Please try again.</Message></Error>";

/**
 * A fault-injecting HTTP proxy in front of an S3-compatible store: per request it forwards, answers
 * 500 InternalError as S3 does, or holds the request unanswered (a store that timed out). Clients
 * sign requests for the host they talk to; the store does not check it.
 */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  let rule: FaultRule = () => "pass";
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? "GET";
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://proxy").pathname);
    const action = rule({ method, path });
    const entry: SeenRequest = { method, path, action, answered: false };
    seen.push(entry);
    res.once("finish", () => {
      entry.answered = true;
    });
    if (action === "hang") {
      // Read and drop the body, never answer: only the client's own timeout ends this.
      req.resume();
      return;
    }
    if (action === "error") {
      req.resume();
      req.once("end", () => {
        res.writeHead(500, { "content-type": "application/xml", connection: "close" });
        res.end(INTERNAL_ERROR);
      });
      return;
    }
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.once("error", () => res.destroy());
    req.pipe(forward);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    setRule(next) {
      rule = next;
    },
    async stop() {
      // Held requests keep their sockets open: close them, or close() waits forever.
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
