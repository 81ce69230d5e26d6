import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";

describe("configuration", () => {
  it("refuses a bad configuration with every problem listed", () => {
    expect(() => loadConfig({ REDIS_URL: "nope", CONCURRENCY: "0" })).toThrow(
      /REDIS_URL[\s\S]*DATABASE_URL[\s\S]*CONCURRENCY/,
    );
  });
});
