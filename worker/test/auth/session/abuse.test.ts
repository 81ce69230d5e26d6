import { describe, expect, it } from "vitest";
import {
  authPath,
  Client,
  KINDS,
  registerAccount,
  strongPassword,
  uniqueEmail,
  uniqueIp,
  uniqueName,
} from "../../support/auth.ts";
import { expectProblem } from "../../support/problem.ts";

describe.each(KINDS)("%s abuse limits", (kind) => {
  const path = authPath(kind);

  it("stops a network after 10 failures against an account, even with the right password, but never the owner on another network", async () => {
    const { email, password } = await registerAccount(kind);
    const attacker = uniqueIp();
    for (let i = 0; i < 10; i++) {
      await expectProblem(
        await new Client(attacker).post(`${path}/login`, { email, password: `wrong-${i}` }),
        401,
        "UNAUTHORIZED",
      );
    }
    const limited = await new Client(attacker).post(`${path}/login`, { email, password });
    await expectProblem(limited, 429, "RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(800);
    // The owner, elsewhere, signs in.
    expect((await new Client().post(`${path}/login`, { email, password })).status).toBe(200);
  });

  it("gives each network fewer tries as an account is guessed at from many, and still lets a clean network in", async () => {
    const { email, password } = await registerAccount(kind);
    const networks = Array.from({ length: 7 }, () => uniqueIp());
    // 21 failures from 7 networks (3 each): past 20, each network gets 3 tries in 15 minutes.
    for (const ip of networks) {
      for (let i = 0; i < 3; i++) {
        const guess = await new Client(ip).post(`${path}/login`, { email, password: `x${i}` });
        expect(guess.status).toBe(401);
      }
    }
    const fourth = await new Client(networks[0]).post(`${path}/login`, { email, password });
    await expectProblem(fourth, 429, "RATE_LIMITED");
    // A network that has not failed against the account is judged: the owner signs in.
    expect((await new Client().post(`${path}/login`, { email, password })).status).toBe(200);
    // That success gives back only the owner's own attempt: the guessers' count stands.
    await expectProblem(
      await new Client(networks[1]).post(`${path}/login`, { email, password: "x3" }),
      429,
      "RATE_LIMITED",
    );
  });

  it("counts guesses sent in parallel before judging them (no burst slips under the limit)", async () => {
    const { email } = await registerAccount(kind);
    const attacker = uniqueIp();
    const guesses = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        new Client(attacker).post(`${path}/login`, { email, password: `wrong-${i}` }),
      ),
    );
    const statuses = guesses.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);
  });

  it("limits failed sign-ins per address (50 per 15 minutes)", async () => {
    const client = new Client();
    for (let i = 0; i < 50; i++) {
      const response = await client.post(`${path}/login`, {
        email: uniqueEmail(),
        password: "wrong-password",
      });
      expect(response.status).toBe(401);
    }
    await expectProblem(
      await client.post(`${path}/login`, { email: uniqueEmail(), password: "x" }),
      429,
      "RATE_LIMITED",
    );
    // Another address is not affected.
    const { email, password } = await registerAccount(kind);
    expect((await new Client().post(`${path}/login`, { email, password })).status).toBe(200);
  });
});

describe("cross-site requests (CSRF)", () => {
  const register = (headers: Record<string, string>) =>
    new Client().post(
      "/api/v1/users/auth/register",
      { username: uniqueName(), email: uniqueEmail(), password: strongPassword() },
      headers,
    );

  it("refuses a state-changing request from a foreign Origin with 403", async () => {
    await expectProblem(await register({ origin: "https://evil.example" }), 403, "FORBIDDEN");
    await expectProblem(await register({ "sec-fetch-site": "cross-site" }), 403, "FORBIDDEN");
  });

  it("refuses a cookie-authenticated request from a foreign Origin, and lets the front end in", async () => {
    const { client, password } = await registerAccount("user");
    await expectProblem(
      await client.post(
        "/api/v1/users/auth/2fa/enable",
        { password },
        {
          origin: "https://evil.example",
        },
      ),
      403,
      "FORBIDDEN",
    );
    const fromFrontEnd = await client.post(
      "/api/v1/users/auth/2fa/enable",
      { password },
      {
        origin: "http://localhost:5173",
      },
    );
    expect(fromFrontEnd.status).toBe(200);
    expect(fromFrontEnd.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(fromFrontEnd.headers.get("access-control-allow-credentials")).toBe("true");
  });

  it("accepts the front end and clients that send no Origin", async () => {
    expect((await register({ origin: "http://localhost:5173" })).status).toBe(201);
    expect((await register({})).status).toBe(201);
  });

  it("accepts a local service under each of its loopback names, only at its own port and on http", async () => {
    // The test deployment is http://localhost:8787, the front end http://localhost:5173.
    for (const origin of ["http://127.0.0.1:5173", "http://[::1]:5173", "http://127.0.0.1:8787"]) {
      expect((await register({ origin })).status, origin).toBe(201);
    }
    for (const origin of [
      "http://127.0.0.1:5174",
      "https://127.0.0.1:5173",
      "http://127.0.0.2:5173",
    ]) {
      await expectProblem(await register({ origin }), 403, "FORBIDDEN");
    }
  });

  it("answers CORS preflights for the front end only", async () => {
    const preflight = (origin: string) =>
      new Client().request("OPTIONS", "/api/v1/users/auth/login", undefined, {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      });
    const ok = await preflight("http://localhost:5173");
    expect(ok.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    const evil = await preflight("https://evil.example");
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
  });
});
