import { createHttpDb } from "@edge-music/db";
import { describe, expect, it, vi } from "vitest";
import { parseEnv } from "../../../src/env.ts";
import { ValidationError } from "../../../src/errors/app-error.ts";
import { resetPassword } from "../../../src/features/auth/password/service.ts";
import type { AuthContext } from "../../../src/features/auth/shared.ts";
import { createLogger } from "../../../src/logger.ts";
import { ACCOUNT_KINDS, type PrincipalKind } from "../../../src/security/account-kinds.ts";
import {
  app,
  authPath,
  Client,
  KINDS,
  mailedToken,
  registerAccount,
  strongPassword,
  uniqueEmail,
} from "../../support/auth.ts";
import { send, testBindings } from "../../support/env.ts";
import { expectProblem } from "../../support/problem.ts";

/** The service with a clock of the test's choosing. */
async function resetAt(now: Date, kind: PrincipalKind, token: string, password: string) {
  const env = parseEnv(testBindings());
  const ctx: AuthContext = {
    db: createHttpDb(env.DATABASE_URL, { httpEndpoint: env.NEON_HTTP_ENDPOINT ?? "" }),
    env,
    log: createLogger({}, "error"),
    now,
    ip: "test",
    userAgent: undefined,
    waitUntil: () => {},
    account: ACCOUNT_KINDS[kind],
  };
  return await resetPassword(ctx, token, password);
}

describe.each(KINDS)("%s password reset", (kind) => {
  const path = authPath(kind);

  it("answers known and unknown emails identically", async () => {
    const { email } = await registerAccount(kind);
    const known = await new Client().post(`${path}/password/forgot`, { email });
    const unknown = await new Client().post(`${path}/password/forgot`, { email: uniqueEmail() });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(await known.json()).toEqual(await unknown.json());
    expect(await mailedToken(email)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("sets the new password once, ends every session and does not sign in", async () => {
    const account = await registerAccount(kind);
    await new Client().post(`${path}/password/forgot`, { email: account.email.toUpperCase() });
    const token = (await mailedToken(account.email)) ?? "";
    const password = strongPassword();
    const client = new Client();
    const reset = await client.post(`${path}/password/reset`, { token, password });
    expect(reset.status).toBe(200);
    expect(reset.headers.getSetCookie()).toEqual([]);
    // Every session of the account is over.
    await expectProblem(await account.client.get(`${path}/me`), 401, "UNAUTHORIZED");
    // Only the new password works.
    await expectProblem(
      await new Client().post(`${path}/login`, {
        email: account.email,
        password: account.password,
      }),
      401,
      "UNAUTHORIZED",
    );
    expect(
      (await new Client().post(`${path}/login`, { email: account.email, password })).status,
    ).toBe(200);
    // Single use.
    const again = await expectProblem(
      await client.post(`${path}/password/reset`, { token, password: strongPassword() }),
      400,
      "VALIDATION_FAILED",
    );
    expect(again.errors).toEqual([
      expect.objectContaining({ path: "json.token", code: "invalid_token" }),
    ]);
  });

  it("refuses an expired token (1 hour) and an unknown one", async () => {
    const account = await registerAccount(kind);
    await new Client().post(`${path}/password/forgot`, { email: account.email });
    const token = (await mailedToken(account.email)) ?? "";
    const later = new Date(Date.now() + 61 * 60 * 1000);
    await expect(resetAt(later, kind, token, strongPassword())).rejects.toBeInstanceOf(
      ValidationError,
    );
    // Still valid within the hour (the expired attempt did not consume it).
    const soon = new Date(Date.now() + 59 * 60 * 1000);
    await expect(resetAt(soon, kind, token, strongPassword())).resolves.toMatchObject({
      message: expect.any(String),
    });
    await expectProblem(
      await new Client().post(`${path}/password/reset`, {
        token: "x".repeat(43),
        password: strongPassword(),
      }),
      400,
      "VALIDATION_FAILED",
    );
  });

  it("applies the password rules to the new password", async () => {
    const problem = await expectProblem(
      await new Client().post(`${path}/password/reset`, {
        token: "x".repeat(43),
        password: "password123",
      }),
      400,
      "VALIDATION_FAILED",
    );
    expect((problem.errors as Array<{ path: string }>).map((e) => e.path)).toContain(
      "json.password",
    );
  });

  it("limits requests per email, known or not (429 with Retry-After)", async () => {
    for (const email of [(await registerAccount(kind)).email, uniqueEmail()]) {
      for (let i = 0; i < 3; i++) {
        expect((await new Client().post(`${path}/password/forgot`, { email })).status).toBe(202);
      }
      const limited = await new Client().post(`${path}/password/forgot`, { email });
      await expectProblem(limited, 429, "RATE_LIMITED");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });
});

describe("password reset without a mail API (development mode)", () => {
  it("writes the reset token to the service log", async () => {
    const account = await registerAccount("user");
    const lines: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    try {
      const response = await send(
        app,
        "/api/v1/users/auth/password/forgot",
        {
          method: "POST",
          headers: { "content-type": "application/json", "cf-connecting-ip": "10.9.9.9" },
          body: JSON.stringify({ email: account.email }),
        },
        testBindings({ MAIL_API_KEY: undefined, LOG_LEVEL: "info" }),
      );
      expect(response.status).toBe(202);
    } finally {
      spy.mockRestore();
    }
    const entry = lines.map((l) => JSON.parse(l)).find((l) => l.mail?.to === account.email);
    expect(entry?.message).toMatch(/development mode/);
    const token = /Reset token: (\S+)/.exec(entry?.mail?.text ?? "")?.[1] ?? "";
    const reset = await new Client().post("/api/v1/users/auth/password/reset", {
      token,
      password: strongPassword(),
    });
    expect(reset.status).toBe(200);
  });
});
