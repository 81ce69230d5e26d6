import { describe, expect, it } from "vitest";
import { parseRedisUrl } from "../src/index.ts";

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
