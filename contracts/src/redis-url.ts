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

/** ioredis's DNS hook, as far as it is used here (this module imports no client). */
type DnsLookup = (hostname: string, callback: (error: null, address: string) => void) => void;

/** What a cluster URL says of every node: credentials and TLS. */
export interface RedisNodeCredentials {
  username?: string;
  password?: string;
  tls?: Record<string, never>;
}

/**
 * The arguments of an ioredis client for REDIS_URL, the same on both sides:
 * `new Redis(c.url, c.options)` for a single server, `new Cluster(c.nodes, c.options)` for a cluster.
 */
export type RedisConnectionOptions<Options extends object, ClusterOptions extends object> =
  | { mode: "single"; url: string; options: Options & { lazyConnect?: true } }
  | {
      mode: "cluster";
      nodes: [{ host: string; port: number }];
      options: ClusterOptions & {
        lazyConnect?: true;
        dnsLookup: DnsLookup;
        redisOptions: Options & RedisNodeCredentials;
      };
    };

/**
 * REDIS_URL as ioredis's arguments, with the caller's options where each belongs:
 * - `redis`: options of every connection to a server (the single one, or each node of a cluster);
 * - `cluster`: options of the Cluster client itself, used only for a cluster URL;
 * - `lazyConnect`: connect on the first command; it lives on the single client, and on the
 *   Cluster client rather than its nodes.
 * A cluster's nodes get the URL's user, password and TLS; hostnames go to the socket as they are,
 * so TLS checks certificates against the name (managed clusters announce names when TLS is on)
 * and no DNS module is needed (the Workers runtime resolves names itself).
 */
export function redisConnectionOptions<
  Options extends object = Record<never, never>,
  ClusterOptions extends object = Record<never, never>,
>(
  url: string,
  overrides: { redis?: Options; cluster?: ClusterOptions; lazyConnect?: boolean } = {},
): RedisConnectionOptions<Options, ClusterOptions> {
  const target = parseRedisUrl(url);
  const redis = overrides.redis ?? ({} as Options);
  const lazy = overrides.lazyConnect ? { lazyConnect: true as const } : {};
  if (target.mode === "single") return { mode: "single", url, options: { ...redis, ...lazy } };
  return {
    mode: "cluster",
    nodes: [target.seed],
    options: {
      ...(overrides.cluster ?? ({} as ClusterOptions)),
      ...lazy,
      dnsLookup: (address, callback) => callback(null, address),
      redisOptions: {
        ...redis,
        ...(target.username ? { username: target.username } : {}),
        ...(target.password ? { password: target.password } : {}),
        ...(target.tls ? { tls: {} } : {}),
      },
    },
  };
}
