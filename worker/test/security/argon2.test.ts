import { describe, expect, inject, it } from "vitest";
import { hashPassword, verifyPassword } from "../../src/security/password.ts";
import { standIn } from "../support/auth.ts";

const oracle = () => `${inject("infra").standIns.url}/oracle/argon2`;

describe("argon2id in the Worker", () => {
  it("makes PHC strings with the pinned parameters that @node-rs/argon2 (Node) verifies", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(
      await standIn(`${oracle()}/verify`, { hash, password: "correct horse battery staple" }),
    ).toEqual({ ok: true });
    expect(await standIn(`${oracle()}/verify`, { hash, password: "wrong" })).toEqual({ ok: false });
  });

  it("hashes at the least argon2id cost only when asked (the test suite's setting), verified alike", async () => {
    const hash = await hashPassword("correct horse battery staple", "minimal-for-tests");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
    expect(await verifyPassword(hash, "correct horse battery staple")).toBe(true);
    expect(await verifyPassword(hash, "correct horse battery stapler")).toBe(false);
    expect(
      await standIn(`${oracle()}/verify`, { hash, password: "correct horse battery staple" }),
    ).toEqual({ ok: true });
  });

  it("verifies hashes made by @node-rs/argon2 in Node", async () => {
    const { hash } = await standIn<{ hash: string }>(`${oracle()}/hash`, {
      password: "pässwörd ✓ 123",
    });
    expect(await verifyPassword(hash, "pässwörd ✓ 123")).toBe(true);
    expect(await verifyPassword(hash, "passwörd ✓ 123")).toBe(false);
  });

  it("hashes the whole UTF-8 password (not a prefix) and normalises it (NFKC)", async () => {
    // A prefix-truncating binding would accept "💿💿💿💿" for "💿💿💿💿💿💿💿💿".
    const hash = await hashPassword("💿💿💿💿💿💿💿💿");
    expect(await verifyPassword(hash, "💿💿💿💿")).toBe(false);
    expect(await standIn(`${oracle()}/verify`, { hash, password: "💿💿💿💿💿💿💿💿" })).toEqual({
      ok: true,
    });
    // "é" typed as one code point or as "e" + combining accent is the same password.
    const composed = await hashPassword("caf\u00e9 au lait");
    expect(await verifyPassword(composed, "cafe\u0301 au lait")).toBe(true);
  });

  it("salts every hash and refuses what is not an argon2 hash", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
    expect(await verifyPassword("plain-text", "plain-text")).toBe(false);
    expect(await verifyPassword("$argon2id$garbage", "x")).toBe(false);
  });
});
