/**
 * How `REDIS_URL` is read, the same on both sides (the Worker adds jobs, the transcoder takes
 * them: they must reach the same Redis the same way). No client here: this module runs in
 * Workers and Node and imports nothing.
 *
 * - `redis://` / `rediss://` (TLS): one Redis server, passed to ioredis unchanged.
 * - `redis+cluster://` / `rediss+cluster://` (TLS): a Redis Cluster. The host is one seed node
 *   (any node, or a provider's configuration endpoint); the client learns the others from
 *   CLUSTER SLOTS. User, password and TLS apply to every node. A cluster has only database 0,
 *   so a path other than `/` or `/0` is refused, and so are query options (they would be ignored).
 */
export type RedisTarget =
  | { mode: "single"; url: string }
  | {
      mode: "cluster";
      seed: { host: string; port: number };
      username?: string;
      password?: string;
      tls: boolean;
    };

export const REDIS_URL_PROTOCOLS = ["redis:", "rediss:", "redis+cluster:", "rediss+cluster:"];

export class RedisUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RedisUrlError";
  }
}

/** Parses `REDIS_URL`; throws RedisUrlError (never echoing the password) when it is unusable. */
export function parseRedisUrl(value: string): RedisTarget {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RedisUrlError("is not a URL");
  }
  if (!REDIS_URL_PROTOCOLS.includes(url.protocol)) {
    throw new RedisUrlError(`must use one of ${REDIS_URL_PROTOCOLS.join(", ")}`);
  }
  if (!url.hostname) throw new RedisUrlError("has no host");
  if (!url.protocol.endsWith("+cluster:")) return { mode: "single", url: value };
  if (!["", "/", "/0"].includes(url.pathname)) {
    throw new RedisUrlError("a Redis Cluster has only database 0: drop the path");
  }
  if (url.search) throw new RedisUrlError("takes no query options in cluster mode");
  const port = url.port ? Number(url.port) : 6379;
  return {
    mode: "cluster",
    // WHATWG URLs keep brackets around IPv6 hosts; sockets want the bare address.
    seed: { host: url.hostname.replace(/^\[(.*)\]$/, "$1"), port },
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    tls: url.protocol === "rediss+cluster:",
  };
}
