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

  it("requires the R2 binding when the driver is r2", () => {
    expect(() => parseEnv({ ...valid, STORAGE_DRIVER: "r2" })).toThrow(/MEDIA/);
  });
});
