import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ACCOUNT_KINDS } from "../../../src/security/account-kinds.ts";
import {
  authPath,
  Client,
  KINDS,
  type Registered,
  registerAccount,
  signInWithProvider,
  totpCode,
  turnOnTwoFactor,
} from "../../support/auth.ts";
import { withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";

const errorCode = (body: Record<string, unknown>) =>
  (body.errors as Array<{ code: string }> | undefined)?.[0]?.code;

describe.each(KINDS)("%s re-authentication for 2FA changes", (kind) => {
  const path = authPath(kind);

  /** A second session of the account, to see which changes sign the others out. */
  const secondSession = async (account: Registered, code?: string) => {
    const other = new Client();
    const answer = await other.post(`${path}/login`, {
      email: account.email,
      password: account.password,
      ...(code ? { code } : {}),
    });
    expect(await answer.json()).toMatchObject({ requiresTwoFactor: false });
    expect((await other.get(`${path}/me`)).status).toBe(200);
    return other;
  };

  const withTwoFactorOn = (account: Registered) => turnOnTwoFactor(kind, account);

  /** The account's sessions as if they had signed in six minutes ago. */
  const ageSessions = (principalId: string) =>
    withDb((db) =>
      db
        .update(ACCOUNT_KINDS[kind].auth.sessions)
        .set({ createdAt: sql`now() - interval '6 minutes'` })
        .where(eq(ACCOUNT_KINDS[kind].auth.sessions.principalId, principalId)),
    );

  it("takes the specification's bodies within 5 minutes of signing in: 2fa/enable without one, 2fa/disable with only the code", async () => {
    const account = await registerAccount(kind);
    // POST with no body at all, as the specification shows it.
    const enabled = await account.client.request("POST", `${path}/2fa/enable`);
    expect(enabled.status).toBe(200);
    const { secret } = (await enabled.json()) as { secret: string };
    expect(
      (await account.client.post(`${path}/2fa/verify`, { code: await totpCode(secret) })).status,
    ).toBe(200);
    const disabled = await account.client.post(`${path}/2fa/disable`, {
      code: await totpCode(secret, 1),
    });
    expect(disabled.status).toBe(200);
    expect(await disabled.json()).toEqual({ twoFactorEnabled: false });
  });

  it("asks a session older than 5 minutes for the password with 403 REAUTHENTICATION_REQUIRED", async () => {
    const account = await registerAccount(kind);
    const { secret } = await withTwoFactorOn(account);
    await ageSessions(account.id);
    const disable = (body: object) => account.client.post(`${path}/2fa/disable`, body);
    const code = await totpCode(secret, 1);
    const stale = await expectProblem(await disable({ code }), 403, "REAUTHENTICATION_REQUIRED");
    expect(stale.detail).toMatch(/password/);
    // The code was not spent: sent again with the password, the same code turns 2FA off.
    expect((await disable({ code, password: account.password })).status).toBe(200);
    await expectProblem(
      await account.client.request("POST", `${path}/2fa/enable`),
      403,
      "REAUTHENTICATION_REQUIRED",
    );
    expect(
      (await account.client.post(`${path}/2fa/enable`, { password: account.password })).status,
    ).toBe(200);
  });

  it("checks a password sent to set 2FA up", async () => {
    const account = await registerAccount(kind);
    const enable = (body: object) => account.client.post(`${path}/2fa/enable`, body);
    const wrong = await expectProblem(
      await enable({ password: "wrong" }),
      400,
      "VALIDATION_FAILED",
    );
    expect(errorCode(wrong)).toBe("wrong_password");
    expect((await enable({ password: account.password })).status).toBe(200);
  });

  it("turning 2FA on ends the account's other sessions", async () => {
    const account = await registerAccount(kind);
    const other = await secondSession(account);
    await withTwoFactorOn(account);
    await expectProblem(await other.get(`${path}/me`), 401, "UNAUTHORIZED");
    expect((await account.client.get(`${path}/me`)).status).toBe(200);
  });

  it("turning 2FA off needs the password and a code, and ends the other sessions", async () => {
    const account = await registerAccount(kind);
    const { secret, recoveryCodes } = await withTwoFactorOn(account);
    const other = await secondSession(account, recoveryCodes[0]);
    const code = await totpCode(secret, 1);
    const disable = (body: object) => account.client.post(`${path}/2fa/disable`, body);
    const wrong = await expectProblem(
      await disable({ code, password: "wrong" }),
      400,
      "VALIDATION_FAILED",
    );
    expect(errorCode(wrong)).toBe("wrong_password");
    expect((await disable({ code, password: account.password })).status).toBe(200);
    await expectProblem(await other.get(`${path}/me`), 401, "UNAUTHORIZED");
    expect((await account.client.get(`${path}/me`)).status).toBe(200);
    await expectProblem(await disable({ code, password: account.password }), 409, "CONFLICT");
  });

  it("replaces the recovery codes: the new ones work, the old ones stop, other sessions end", async () => {
    const account = await registerAccount(kind);
    const { secret, recoveryCodes: old } = await withTwoFactorOn(account);
    const other = await secondSession(account, old[1]);
    const regenerate = (body: object) => account.client.post(`${path}/2fa/recovery-codes`, body);
    await expectProblem(await regenerate({ password: account.password }), 400, "VALIDATION_FAILED");
    const answer = await regenerate({
      code: await totpCode(secret, 1),
      password: account.password,
    });
    expect(answer.status).toBe(200);
    const { recoveryCodes } = (await answer.json()) as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(recoveryCodes.some((code) => old.includes(code))).toBe(false);
    await expectProblem(await other.get(`${path}/me`), 401, "UNAUTHORIZED");
    const login = (code: string) =>
      new Client().post(`${path}/login`, {
        email: account.email,
        password: account.password,
        code,
      });
    await expectProblem(await login(old[0] ?? ""), 401, "UNAUTHORIZED");
    expect((await login(recoveryCodes[0] ?? "")).status).toBe(200);
  });

  it("a right code past the code limit still gives the right password's sign-in count back", async () => {
    const account = await registerAccount(kind);
    const { secret } = await withTwoFactorOn(account);
    const regenerate = (code: string) =>
      account.client.post(`${path}/2fa/recovery-codes`, { password: account.password, code });
    for (let i = 0; i < 5; i++) {
      await expectProblem(await regenerate(String(100000 + i)), 401, "UNAUTHORIZED");
    }
    // The code limit is spent: the right code waits too, eleven times, its password right each time.
    const right = await totpCode(secret, 1);
    for (let i = 0; i < 11; i++) await expectProblem(await regenerate(right), 429, "RATE_LIMITED");
    // None of those was a failed sign-in: the owner's network still signs in.
    const signIn = await new Client(account.client.ip).post(`${path}/login`, {
      email: account.email,
      password: account.password,
    });
    expect(signIn.status).toBe(200);
  });

  it("answers 409 for new recovery codes while 2FA is off", async () => {
    const account = await registerAccount(kind);
    await expectProblem(
      await account.client.post(`${path}/2fa/recovery-codes`, {
        code: "123456",
        password: account.password,
      }),
      409,
      "CONFLICT",
    );
  });

  it("lets an account without a password act within 5 minutes of signing in, then asks for a fresh sign-in", async () => {
    const client = await signInWithProvider(kind);
    const me = (await (await client.get(`${path}/me`)).json()) as { id: string };
    expect((await client.post(`${path}/2fa/enable`, {})).status).toBe(200);
    // Six minutes later the same session must sign in again.
    const { sessions } = ACCOUNT_KINDS[kind].auth;
    await withDb((db) =>
      db
        .update(sessions)
        .set({ createdAt: sql`now() - interval '6 minutes'` })
        .where(eq(sessions.principalId, me.id)),
    );
    await expectProblem(await client.post(`${path}/2fa/enable`, {}), 403, "FORBIDDEN");
  });
});
