import { userRecoveryCodes } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  decrypt,
  encrypt,
  keyedHashHex,
  SealingKeyUnavailableError,
  sha256Hex,
} from "../../../src/security/crypto.ts";
import {
  app,
  authPath,
  Client,
  registerAccount,
  totpCode,
  turnOnTwoFactor,
} from "../../support/auth.ts";
import { send, testBindings } from "../../support/env.ts";
import { withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";

const key = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
const bytes = new TextEncoder().encode("a TOTP secret");

describe("sealing keys", () => {
  it("opens a secret with the key that sealed it, current or previous; refuses without it", async () => {
    const [a, b] = [key(), key()];
    const sealed = await encrypt({ current: a, previous: [] }, bytes, "row-1");
    expect(sealed.split(".")).toHaveLength(3);
    expect(await decrypt({ current: b, previous: [a] }, sealed, "row-1")).toEqual(bytes);
    await expect(decrypt({ current: b, previous: [] }, sealed, "row-1")).rejects.toBeInstanceOf(
      SealingKeyUnavailableError,
    );
    // Bound to its row: another context does not open it.
    await expect(decrypt({ current: a, previous: [] }, sealed, "row-2")).rejects.toThrow();
    // A secret sealed before keys were named (`<iv>.<ciphertext>`) is tried with every key.
    const legacy = sealed.split(".").slice(1).join(".");
    expect(await decrypt({ current: b, previous: [a] }, legacy, "row-1")).toEqual(bytes);
  });

  it("keys the recovery-code hash by the key and the purpose", async () => {
    const [a, b] = [key(), key()];
    const hash = await keyedHashHex(a, "recovery-code", "abcd");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await keyedHashHex(a, "recovery-code", "abcd")).toBe(hash);
    expect(await keyedHashHex(b, "recovery-code", "abcd")).not.toBe(hash);
    expect(await keyedHashHex(a, "other", "abcd")).not.toBe(hash);
    expect(hash).not.toBe(await sha256Hex("abcd"));
  });
});

describe("2FA secrets at rest", () => {
  const path = authPath("user");

  async function withTwoFactor() {
    const account = await registerAccount("user");
    return { account, ...(await turnOnTwoFactor("user", account)) };
  }

  it("makes recovery codes of 80 bits and stores them under a keyed hash", async () => {
    const { account, recoveryCodes } = await withTwoFactor();
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    const stored = await withDb((db) =>
      db
        .select({ codeHash: userRecoveryCodes.codeHash })
        .from(userRecoveryCodes)
        .where(eq(userRecoveryCodes.principalId, account.id)),
    );
    const plain = await Promise.all(recoveryCodes.map((c) => sha256Hex(c.replace(/-/g, ""))));
    expect(stored).toHaveLength(10);
    for (const { codeHash } of stored) expect(plain).not.toContain(codeHash);
  });

  it("still accepts, once, a recovery code stored before keyed hashes", async () => {
    const { account } = await withTwoFactor();
    const legacy = "abcde-fghij";
    await withDb(async (db) =>
      db
        .insert(userRecoveryCodes)
        .values({ principalId: account.id, codeHash: await sha256Hex("abcdefghij") }),
    );
    const login = () =>
      new Client().post(`${path}/login`, {
        email: account.email,
        password: account.password,
        code: legacy,
      });
    expect((await login()).status).toBe(200);
    await expectProblem(await login(), 401, "UNAUTHORIZED");
  });

  it("keeps 2FA working across a new sealing key while the old one is listed as previous", async () => {
    const { account, secret } = await withTwoFactor();
    const old = testBindings().ENCRYPTION_KEY ?? "";
    const login = async (bindings: ReturnType<typeof testBindings>, offset: number) =>
      await send(
        app,
        `${path}/login`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            email: account.email,
            password: account.password,
            code: await totpCode(secret, offset),
          }),
        },
        bindings,
      );
    // The key retired too early: the service says it cannot check codes, it does not crash.
    const retired = await login(testBindings({ ENCRYPTION_KEY: key() }), 1);
    await expectProblem(retired, 503, "SERVICE_UNAVAILABLE");
    const rotated = testBindings({ ENCRYPTION_KEY: key(), ENCRYPTION_KEYS_PREVIOUS: old });
    expect((await login(rotated, 1)).status).toBe(200);
  });
});
