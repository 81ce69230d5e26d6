import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "../src/env.ts";

const valid = {
  DATABASE_URL: "postgres://app:s3cr3t-pass@db.example:5432/app",
  REDIS_URL: "rediss://default:r3dis-pass@cache.example:6380",
  PUBLIC_BASE_URL: "https://api.example",
  FRONTEND_URL: "https://example",
  S3_ENDPOINT: "https://s3.example",
  S3_BUCKET: "media",
  S3_ACCESS_KEY_ID: "AKIA",
  S3_SECRET_ACCESS_KEY: "very-secret-key",
  STORAGE_DRIVER: "s3",
  JWT_SECRET: "a-signing-secret-of-at-least-32-characters",
  ENCRYPTION_KEY: btoa("k".repeat(32)),
};

describe("configuration", () => {
  it("accepts a complete S3 configuration and fills defaults", () => {
    const env = parseEnv({ ...valid });
    expect(env.LOG_LEVEL).toBe("info");
    expect(env.STORAGE_DRIVER === "s3" && env.S3_REGION).toBe("auto");
  });

  it("lists every problem by name and never echoes a secret value", () => {
    const bad = {
      ...valid,
      DATABASE_URL: "mysql://app:s3cr3t-pass@db",
      REDIS_URL: undefined,
      S3_BUCKET: "",
    };
    let error: unknown;
    try {
      parseEnv(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain("DATABASE_URL");
    expect(message).toContain("REDIS_URL");
    expect(message).toContain("S3_BUCKET");
    expect(message).not.toContain("s3cr3t-pass");
  });

  it("takes a Redis Cluster as redis[s]+cluster:// and refuses what a cluster cannot honour", () => {
    const cluster = "rediss+cluster://default:r3dis-pass@cfg.cache.example:6379";
    expect(parseEnv({ ...valid, REDIS_URL: cluster }).REDIS_URL).toBe(cluster);
    expect(() => parseEnv({ ...valid, REDIS_URL: "redis+cluster://h:7000/2" })).toThrow(
      /REDIS_URL: a Redis Cluster has only database 0/,
    );
    expect(() => parseEnv({ ...valid, REDIS_URL: "https://h:7000" })).toThrow(/REDIS_URL/);
  });

  it("hashes passwords at the standard cost unless told otherwise, and only development may not", () => {
    expect(parseEnv({ ...valid }).PASSWORD_HASH_COST).toBe("standard");
    const minimal = { ...valid, PASSWORD_HASH_COST: "minimal-for-tests" };
    expect(parseEnv({ ...minimal, DEPLOYMENT: "development" }).PASSWORD_HASH_COST).toBe(
      "minimal-for-tests",
    );
    for (const DEPLOYMENT of ["staging", "production"]) {
      expect(() => parseEnv({ ...minimal, DEPLOYMENT })).toThrow(
        new RegExp(
          `PASSWORD_HASH_COST: must be "standard" outside development \\(DEPLOYMENT is ${DEPLOYMENT}\\)`,
        ),
      );
    }
    expect(() => parseEnv({ ...valid, PASSWORD_HASH_COST: "none" })).toThrow(/PASSWORD_HASH_COST/);
  });

  it("requires the R2 binding when the driver is r2", () => {
    expect(() => parseEnv({ ...valid, STORAGE_DRIVER: "r2" })).toThrow(/MEDIA/);
  });

  it("requires auth secrets of a safe size, naming them without their values", () => {
    const run = (overrides: Record<string, string | undefined>) => {
      try {
        parseEnv({ ...valid, ...overrides });
      } catch (e) {
        return (e as ConfigError).message;
      }
      return "";
    };
    const short = run({ JWT_SECRET: "too-short-secret", ENCRYPTION_KEY: btoa("k".repeat(16)) });
    expect(short).toContain("JWT_SECRET");
    expect(short).toContain("ENCRYPTION_KEY");
    expect(short).not.toContain("too-short-secret");
    expect(run({ JWT_SECRET: undefined })).toContain("JWT_SECRET");
    expect(run({ ENCRYPTION_KEY: "not base64 !" })).toContain("ENCRYPTION_KEY");
  });

  it("parses extra allowed origins and rejects malformed ones", () => {
    const env = parseEnv({ ...valid, ALLOWED_ORIGINS: "https://a.example, https://b.example" });
    expect(env.ALLOWED_ORIGINS).toEqual(["https://a.example", "https://b.example"]);
    expect(() => parseEnv({ ...valid, ALLOWED_ORIGINS: "ftp://x" })).toThrow(/ALLOWED_ORIGINS/);
  });
});
