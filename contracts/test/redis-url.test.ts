import { describe, expect, it } from "vitest";
import { parseRedisUrl, redisConnectionOptions } from "../src/index.ts";

describe("REDIS_URL", () => {
  it("passes a single server's URL through unchanged", () => {
    expect(parseRedisUrl("rediss://default:pw@cache.example:6380/2")).toEqual({
      mode: "single",
      url: "rediss://default:pw@cache.example:6380/2",
    });
  });

  it("reads a cluster's seed node, credentials and TLS", () => {
    expect(parseRedisUrl("rediss+cluster://app:p%40ss%3Aw@cfg.cache.example:7000")).toEqual({
      mode: "cluster",
      seed: { host: "cfg.cache.example", port: 7000 },
      username: "app",
      password: "p@ss:w",
      tls: true,
    });
    expect(parseRedisUrl("redis+cluster://[::1]/0")).toEqual({
      mode: "cluster",
      seed: { host: "::1", port: 6379 },
      tls: false,
    });
  });

  it("refuses what a cluster cannot honour, without echoing the password", () => {
    const problem = (url: string) => {
      try {
        parseRedisUrl(url);
      } catch (error) {
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(problem("redis+cluster://:secret@h:7000/3")).toMatch(/only database 0/);
    expect(problem("redis+cluster://h:7000?family=6")).toMatch(/no query options/);
    expect(problem("http://h:7000")).toMatch(/must use one of/);
    expect(problem("redis+cluster:///")).toMatch(/no host|not a URL/);
    expect(problem("not a url")).toBe("is not a URL");
    expect(problem("redis+cluster://:secret@h:7000/3")).not.toContain("secret");
  });
});

describe("redisConnectionOptions", () => {
  const redis = { maxRetriesPerRequest: 1, connectTimeout: 2_000 };
  const cluster = { slotsRefreshTimeout: 2_000 };

  it("gives a single server the URL and the connection's options, lazily if asked", () => {
    const url = "rediss://default:pw@cache.example:6380/2";
    expect(redisConnectionOptions(url)).toEqual({ mode: "single", url, options: {} });
    expect(redisConnectionOptions(url, { redis, cluster, lazyConnect: true })).toEqual({
      mode: "single",
      url,
      options: { ...redis, lazyConnect: true },
    });
  });

  it("gives a cluster its seed, the client's options, and every node's options and credentials", () => {
    const options = redisConnectionOptions("rediss+cluster://app:p%40ss@cfg.cache.example:7000", {
      redis,
      cluster,
      lazyConnect: true,
    });
    expect(options).toEqual({
      mode: "cluster",
      nodes: [{ host: "cfg.cache.example", port: 7000 }],
      options: {
        ...cluster,
        // On the Cluster client, not in every node's options.
        lazyConnect: true,
        dnsLookup: expect.any(Function),
        redisOptions: { ...redis, username: "app", password: "p@ss", tls: {} },
      },
    });
    expect(redisConnectionOptions("redis+cluster://127.0.0.1:7000").options).toEqual({
      dnsLookup: expect.any(Function),
      redisOptions: {},
    });
  });

  it("hands a cluster node's hostname to the socket unresolved (TLS checks the name)", () => {
    const options = redisConnectionOptions("rediss+cluster://cfg.cache.example:7000").options;
    if (!("dnsLookup" in options)) throw new Error("no dnsLookup");
    let resolved: string | undefined;
    options.dnsLookup("node-1.cache.example", (_error, address) => {
      resolved = address;
    });
    expect(resolved).toBe("node-1.cache.example");
  });
});
