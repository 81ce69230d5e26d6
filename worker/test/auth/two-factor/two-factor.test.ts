import { describe, expect, inject, it } from "vitest";
import {
  authPath,
  Client,
  earlyInAStep,
  KINDS,
  type Registered,
  registerAccount,
  totpCode,
} from "../../support/auth.ts";
import { expectProblem } from "../../support/problem.ts";

const oracle = () => `${inject("infra").standIns.url}/oracle`;
const totp = totpCode;

async function enable(account: Registered, kind: (typeof KINDS)[number]) {
  const response = await account.client.post(`${authPath(kind)}/2fa/enable`, {
    password: account.password,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { qrCode: string; otpauthUri: string; secret: string };
}

describe.each(KINDS)("%s two-factor authentication", (kind) => {
  const path = authPath(kind);

  it("enable → QR decodes to the URI → verify → login needs a code → replay refused → recovery code once → disable", async () => {
    await earlyInAStep();
    const account = await registerAccount(kind);
    const setup = await enable(account, kind);
    expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.otpauthUri).toContain(`secret=${setup.secret}`);
    expect(setup.otpauthUri).toContain("issuer=Edge%20Music");
    if (kind === "artist") expect(setup.otpauthUri).not.toContain(account.email.split("@")[0]);

    const png = Uint8Array.from(atob(setup.qrCode), (c) => c.charCodeAt(0));
    const decoded = await fetch(`${oracle()}/qr/decode`, {
      method: "POST",
      headers: { "content-type": "image/png" },
      body: png,
    });
    expect(decoded.status).toBe(200);
    expect(await decoded.json()).toEqual({ text: setup.otpauthUri });

    // Not active until verified: signing in needs no code yet.
    const before = await new Client().post(`${path}/login`, {
      email: account.email,
      password: account.password,
    });
    expect(await before.json()).toMatchObject({ requiresTwoFactor: false });

    await expectProblem(
      await account.client.post(`${path}/2fa/verify`, { code: "000000" }),
      401,
      "UNAUTHORIZED",
    );
    // The previous step's code is still accepted (clock skew).
    const code = await totp(setup.secret, -1);
    const verified = await account.client.post(`${path}/2fa/verify`, { code });
    expect(verified.status).toBe(200);
    const { recoveryCodes } = (await verified.json()) as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);

    const client = new Client();
    const first = await client.post(`${path}/login`, {
      email: account.email,
      password: account.password,
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ requiresTwoFactor: true });
    expect(first.headers.getSetCookie()).toEqual([]);

    // The code verify accepted is spent: replaying it fails; the current step's code works.
    await expectProblem(
      await client.post(`${path}/login`, {
        email: account.email,
        password: account.password,
        code,
      }),
      401,
      "UNAUTHORIZED",
    );
    const current = await totp(setup.secret);
    const signedIn = await client.post(`${path}/login`, {
      email: account.email,
      password: account.password,
      code: current,
    });
    expect(signedIn.status).toBe(200);
    expect(client.jar.get("access_token")).toBeDefined();

    const recovery = recoveryCodes[3] ?? "";
    const viaRecovery = await new Client().post(`${path}/login`, {
      email: account.email,
      password: account.password,
      code: recovery.toUpperCase(),
    });
    expect(viaRecovery.status).toBe(200);
    await expectProblem(
      await new Client().post(`${path}/login`, {
        email: account.email,
        password: account.password,
        code: recovery,
      }),
      401,
      "UNAUTHORIZED",
    );

    // Disable needs a fresh TOTP code (here the next step's: skew the other way); a recovery
    // code is not enough.
    await expectProblem(
      await client.post(`${path}/2fa/disable`, {
        code: recoveryCodes[5],
        password: account.password,
      }),
      400,
      "VALIDATION_FAILED",
    );
    const off = await client.post(`${path}/2fa/disable`, {
      code: await totp(setup.secret, 1),
      password: account.password,
    });
    expect(off.status).toBe(200);
    const after = await new Client().post(`${path}/login`, {
      email: account.email,
      password: account.password,
    });
    expect(await after.json()).toMatchObject({ requiresTwoFactor: false });
  });

  it("refuses to enable twice, verify without a secret, and disable when off (409)", async () => {
    const account = await registerAccount(kind);
    await expectProblem(
      await account.client.post(`${path}/2fa/verify`, { code: "123456" }),
      409,
      "CONFLICT",
    );
    await expectProblem(
      await account.client.post(`${path}/2fa/disable`, {
        code: "123456",
        password: account.password,
      }),
      409,
      "CONFLICT",
    );
    const setup = await enable(account, kind);
    await account.client.post(`${path}/2fa/verify`, { code: await totp(setup.secret) });
    await expectProblem(
      await account.client.post(`${path}/2fa/enable`, { password: account.password }),
      409,
      "CONFLICT",
    );
  });

  it("uses one code once when several requests send it at the same instant", async () => {
    await earlyInAStep();
    const account = await registerAccount(kind);
    const setup = await enable(account, kind);
    // Two verifies with one code: one turns 2FA on; the other changes nothing.
    const code = await totp(setup.secret, -1);
    const verifies = await Promise.all(
      [0, 1].map(() => account.client.post(`${path}/2fa/verify`, { code })),
    );
    // The other: 401 if it overlapped the winner (the code is spent), 409 if it came after it
    // (nothing is pending any more): under load the two are not always concurrent.
    const statuses = verifies.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    const won = verifies.find((r) => r.status === 200) as Response;
    const { recoveryCodes } = (await won.json()) as { recoveryCodes: string[] };

    // Four sign-ins with one fresh code: exactly one session.
    const current = await totp(setup.secret);
    const clients = [0, 1, 2, 3].map(() => new Client());
    const logins = await Promise.all(
      clients.map((client) =>
        client.post(`${path}/login`, {
          email: account.email,
          password: account.password,
          code: current,
        }),
      ),
    );
    expect(logins.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
    expect(clients.filter((c) => c.jar.get("access_token")).length).toBe(1);

    // The same for a recovery code, and the recovery codes of the winning verify are the ones.
    const recovery = recoveryCodes[0] ?? "";
    const withRecovery = await Promise.all(
      [0, 1, 2].map(() =>
        new Client().post(`${path}/login`, {
          email: account.email,
          password: account.password,
          code: recovery,
        }),
      ),
    );
    expect(withRecovery.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });

  it("counts a sign-in's code only once the password is right, and never answers 429 for a wrong password", async () => {
    const account = await registerAccount(kind);
    const setup = await enable(account, kind);
    await account.client.post(`${path}/2fa/verify`, { code: await totp(setup.secret) });
    const attempt = (password: string) =>
      new Client().post(`${path}/login`, { email: account.email, password, code: "000000" });
    // Without the password, codes are no attempts: they use up nothing of the owner's five.
    for (let i = 0; i < 4; i++) await expectProblem(await attempt("wrong"), 401, "UNAUTHORIZED");
    for (let i = 0; i < 5; i++)
      await expectProblem(await attempt(account.password), 401, "UNAUTHORIZED");
    await expectProblem(await attempt(account.password), 429, "RATE_LIMITED");
    // The code limit is over; a wrong password still answers 401, which tells nothing.
    await expectProblem(await attempt("wrong"), 401, "UNAUTHORIZED");
  });

  it("counts codes sent in parallel before judging them: at most 5 wrong ones get an answer", async () => {
    const account = await registerAccount(kind);
    await enable(account, kind);
    const tries = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        account.client.post(`${path}/2fa/verify`, { code: String(100000 + i) }),
      ),
    );
    const statuses = tries.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);
  });

  it("validates the code's shape (400) and limits wrong codes (429 with Retry-After)", async () => {
    const account = await registerAccount(kind);
    await enable(account, kind);
    for (const code of ["12345", "1234567", "abcdef", ""]) {
      await expectProblem(
        await account.client.post(`${path}/2fa/verify`, { code }),
        400,
        "VALIDATION_FAILED",
      );
    }
    for (let i = 0; i < 5; i++) {
      await expectProblem(
        await account.client.post(`${path}/2fa/verify`, { code: "000000" }),
        401,
        "UNAUTHORIZED",
      );
    }
    const limited = await account.client.post(`${path}/2fa/verify`, { code: "000000" });
    await expectProblem(limited, 429, "RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
