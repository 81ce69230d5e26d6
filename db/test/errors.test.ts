import { describe, expect, it } from "vitest";
import { pgConstraint, pgErrorCode, UNIQUE_VIOLATION } from "../src/errors";

// No database here: real driver errors are covered in constraints.test.ts.

describe("pgErrorCode", () => {
  it("digs the SQLSTATE out of wrapped errors", () => {
    const pgError = Object.assign(new Error("duplicate key"), { code: "23505" });
    const wrapped = new Error("Failed query", { cause: new Error("outer", { cause: pgError }) });
    expect(pgErrorCode(wrapped)).toBe(UNIQUE_VIOLATION);
  });

  it("ignores Node system errors, non-errors and cyclic causes", () => {
    const epipe = Object.assign(new Error("write EPIPE"), { code: "EPIPE", syscall: "write" });
    expect(pgErrorCode(epipe)).toBeUndefined();
    expect(pgErrorCode(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toBeUndefined();
    expect(pgErrorCode("23505")).toBeUndefined();
    expect(pgErrorCode(undefined)).toBeUndefined();
    const cyclic: { cause?: unknown } = {};
    cyclic.cause = cyclic;
    expect(pgErrorCode(cyclic)).toBeUndefined();
  });
});

describe("pgConstraint", () => {
  it("finds the constraint a wrapped driver error names", () => {
    const pgError = Object.assign(new Error("dup"), {
      code: "23505",
      constraint: "users_email_idx",
    });
    expect(pgConstraint(new Error("Failed query", { cause: pgError }))).toBe("users_email_idx");
    expect(pgConstraint(new Error("no constraint"))).toBeUndefined();
  });
});
