import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { LogFn } from "../log.ts";
import {
  BodyTooLargeError,
  json,
  MAX_BODY_BYTES,
  type Reply,
  type Routes,
  readBody,
  type StandInRequest,
} from "./http.ts";
import { mailRoutes } from "./mail.ts";
import { type OAuthClient, type OAuthProvider, oauthRoutes } from "./oauth/index.ts";
import { oracleRoutes } from "./oracle.ts";

export {
  OAUTH_PROVIDERS,
  OAUTH_TEST_CLIENTS,
  type OAuthClient,
  type OAuthProvider,
} from "./oauth/index.ts";

export interface StandInsOptions {
  port: number;
  log: LogFn;
  /** Clients accepted besides OAUTH_TEST_CLIENTS. */
  oauthClients?: Partial<Record<OAuthProvider, OAuthClient[]>>;
  /** The clock of code and token lifetimes, in ms; tests of expiry move it. */
  now?: () => number;
}

export interface StandInsHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * One HTTP server on 127.0.0.1 standing in for the outside services the machine cannot reach:
 * the OAuth providers (/oauth/google, /oauth/facebook), the mail API (/mail) and Node-only
 * reference implementations for tests that run in workerd (/oracle). State is in memory only.
 */
export async function startStandIns(options: StandInsOptions): Promise<StandInsHandle> {
  const routes: Routes = {
    ...oauthRoutes({ clients: options.oauthClients ?? {}, now: options.now ?? Date.now }),
    ...mailRoutes(),
    ...oracleRoutes(),
  };
  const server = createServer((req, res) => void serve(routes, req, res, options.log));
  // Idle connections stay open until the client closes them: the Worker's pooled connections
  // would otherwise race Node's 5-s close (see neon-bridge.ts).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  return {
    url: `http://127.0.0.1:${options.port}`,
    port: options.port,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

async function serve(
  routes: Routes,
  req: IncomingMessage,
  res: ServerResponse,
  log: LogFn,
): Promise<void> {
  const method = req.method ?? "GET";
  // Prefixed, not resolved against a base: a path like "//x" must stay a path.
  const url = new URL(`http://stand-ins${req.url ?? "/"}`);
  let reply: Reply;
  try {
    const body = await readBody(req);
    reply = await dispatch(routes, { method, url, headers: req.headers, body });
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      reply = json(
        413,
        { error: `the body exceeds ${MAX_BODY_BYTES} bytes` },
        { connection: "close" },
      );
    } else {
      // A bug in a stand-in answers 500 and is logged; the server keeps serving.
      log(`${method} ${url.pathname} failed: ${error instanceof Error ? error.stack : error}`);
      reply = json(500, { error: "the stand-in failed; see its log" });
    }
  }
  // The path only: query strings carry codes and tokens.
  log(`${method} ${url.pathname} → ${reply.status}`);
  if (!res.destroyed) res.writeHead(reply.status, reply.headers).end(reply.body);
}

function dispatch(routes: Routes, request: StandInRequest): Reply | Promise<Reply> {
  const { method, url } = request;
  const handler = routes[`${method} ${url.pathname}`];
  if (handler) return handler(request);
  const allowed = Object.keys(routes)
    .filter((key) => key.slice(key.indexOf(" ") + 1) === url.pathname)
    .map((key) => key.slice(0, key.indexOf(" ")));
  if (allowed.length > 0)
    return json(405, { error: `${method} is not allowed here` }, { allow: allowed.join(", ") });
  return json(404, { error: `no stand-in at ${method} ${url.pathname}` });
}
