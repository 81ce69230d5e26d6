import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ACCOUNT_KINDS } from "../../../src/security/account-kinds.ts";
import { REFRESH_GRACE_SECONDS } from "../../../src/security/sessions.ts";
import { SESSION_IDLE_SECONDS } from "../../../src/security/tokens.ts";
import {
  authPath,
  Client,
  KINDS,
  registerAccount,
  strongPassword,
  uniqueEmail,
  uniqueName,
} from "../../support/auth.ts";
import { withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";
import { ageRotation } from "../../support/sessions.ts";

describe.each(KINDS)("%s sessions", (kind) => {
  const path = authPath(kind);

  it("register → me → refresh → old refresh rejected → reuse revokes → logout", async () => {
    const { client, id, username, email } = await registerAccount(kind);
    const me = await client.get(`${path}/me`);
    expect(me.status).toBe(200);
    const account = (await me.json()) as Record<string, unknown>;
    expect(account).toMatchObject({ id, username, twoFactorEnabled: false });
    expect(account).not.toHaveProperty("passwordHash");
    if (kind === "user") expect(account.email).toBe(email);
    else expect(account).not.toHaveProperty("email");

    const firstRefresh = client.jar.get("refresh_token");
    const refreshed = await client.post(`${path}/refresh`);
    expect(refreshed.status).toBe(200);
    const secondRefresh = client.jar.get("refresh_token");
    expect(secondRefresh).toBeDefined();
    expect(secondRefresh).not.toBe(firstRefresh);
    expect((await client.get(`${path}/me`)).status).toBe(200);

    // Past the grace of a rotation, a second client replays the first, already rotated refresh
    // token: reuse → session revoked.
    await ageRotation(kind, id, REFRESH_GRACE_SECONDS + 1);
    const thief = new Client();
    thief.jar.set("refresh_token", firstRefresh ?? "", path);
    await expectProblem(await thief.post(`${path}/refresh`), 401, "UNAUTHORIZED");
    // The legitimate holder is signed out too: the session no longer exists.
    await expectProblem(await client.get(`${path}/me`), 401, "UNAUTHORIZED");
    await expectProblem(await client.post(`${path}/refresh`), 401, "UNAUTHORIZED");
  });

  it("two tabs refreshing with one token at the same moment both stay signed in; a replay after the grace revokes", async () => {
    const { client, id } = await registerAccount(kind);
    const token = client.jar.get("refresh_token") ?? "";
    const tabs = [new Client(), new Client()];
    for (const tab of tabs) tab.jar.set("refresh_token", token, path);
    const answers = await Promise.all(tabs.map((tab) => tab.post(`${path}/refresh`)));
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    for (const tab of tabs) expect((await tab.get(`${path}/me`)).status).toBe(200);
    // Both hold the current pair: either can refresh next, once.
    const [first, second] = tabs as [Client, Client];
    expect(first.jar.get("refresh_token")).not.toBe(token);
    expect((await first.post(`${path}/refresh`)).status).toBe(200);
    // The grace belongs to the last rotation only: the token before it is plain reuse.
    const stale = new Client();
    stale.jar.set("refresh_token", token, path);
    await expectProblem(await stale.post(`${path}/refresh`), 401, "UNAUTHORIZED");
    await expectProblem(await second.get(`${path}/me`), 401, "UNAUTHORIZED");
    expect(id).toEqual(expect.any(String));
  });

  it("a token the last rotation replaced, presented after the grace, revokes the session", async () => {
    const { client, id } = await registerAccount(kind);
    const token = client.jar.get("refresh_token") ?? "";
    expect((await client.post(`${path}/refresh`)).status).toBe(200);
    const late = new Client();
    late.jar.set("refresh_token", token, path);
    await ageRotation(kind, id, REFRESH_GRACE_SECONDS - 3);
    expect((await late.post(`${path}/refresh`)).status).toBe(200);
    await ageRotation(kind, id, REFRESH_GRACE_SECONDS + 1);
    const later = new Client();
    later.jar.set("refresh_token", token, path);
    await expectProblem(await later.post(`${path}/refresh`), 401, "UNAUTHORIZED");
    await expectProblem(await client.get(`${path}/me`), 401, "UNAUTHORIZED");
  });

  it("a session unused for 14 days has ended: it neither refreshes nor shows in the list", async () => {
    const { client, id, email, password } = await registerAccount(kind);
    const other = new Client();
    expect((await other.post(`${path}/login`, { email, password })).status).toBe(200);
    // Just inside the limit, the session still refreshes (and is used again by it).
    await ageRotation(kind, id, SESSION_IDLE_SECONDS - 60);
    expect((await client.post(`${path}/refresh`)).status).toBe(200);
    await ageRotation(kind, id, SESSION_IDLE_SECONDS + 60);
    await expectProblem(await client.post(`${path}/refresh`), 401, "UNAUTHORIZED");
    // Its row is gone, so its access token, still valid for minutes, is refused too.
    await expectProblem(await client.get(`${path}/me`), 401, "UNAUTHORIZED");
    // The other session, idle as long, is not listed to a fresh one.
    const fresh = new Client();
    expect((await fresh.post(`${path}/login`, { email, password })).status).toBe(200);
    const listed = (await (await fresh.get(`${path}/sessions`)).json()) as Array<{
      current: boolean;
    }>;
    expect(listed).toHaveLength(1);
    expect(listed[0]?.current).toBe(true);
  });

  it("two registrations with one email or one username at the same moment: one account, one clean 409", async () => {
    const email = uniqueEmail();
    const byEmail = await Promise.all(
      [0, 1, 2].map(() =>
        new Client().post(`${path}/register`, {
          username: uniqueName(),
          email,
          password: strongPassword(),
        }),
      ),
    );
    expect(byEmail.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const refused of byEmail.filter((r) => r.status === 409)) {
      await expectProblem(refused, 409, "CONFLICT");
    }
    const username = uniqueName();
    const byName = await Promise.all(
      [username, username.toUpperCase()].map((name) =>
        new Client().post(`${path}/register`, {
          username: name,
          email: uniqueEmail(),
          password: strongPassword(),
        }),
      ),
    );
    expect(byName.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it("logout ends the session at once and clears both cookies", async () => {
    const { client } = await registerAccount(kind);
    const access = client.jar.get("access_token") ?? "";
    const out = await client.post(`${path}/logout`);
    expect(out.status).toBe(204);
    const cleared = out.headers.getSetCookie().join("\n");
    expect(cleared).toMatch(/access_token=;.*Max-Age=0/);
    expect(cleared).toMatch(/refresh_token=;.*Max-Age=0/);
    // The access token is still within its 5 minutes, but its session is gone.
    const replay = new Client();
    const me = await replay.get(`${path}/me`, { cookie: `access_token=${access}` });
    await expectProblem(me, 401, "UNAUTHORIZED");
    expect((await new Client().post(`${path}/logout`)).status).toBe(204);
  });

  it("sets HttpOnly, SameSite=Lax cookies with lifetimes and paths", async () => {
    const client = new Client();
    const response = await client.post(`${path}/register`, {
      username: uniqueName(),
      email: uniqueEmail(),
      password: strongPassword(),
    });
    const cookies = response.headers.getSetCookie();
    const access = cookies.find((c) => c.startsWith("access_token="));
    const refresh = cookies.find((c) => c.startsWith("refresh_token="));
    expect(access).toMatch(/Max-Age=300/);
    expect(access).toMatch(/Path=\/api\/v1(;|$)/);
    expect(refresh).toMatch(/Max-Age=2592000/);
    expect(refresh).toContain(`Path=${path}`);
    for (const cookie of [access, refresh]) {
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      // The test deployment's base URL is http://localhost: no Secure there.
      expect(cookie).not.toMatch(/Secure/);
    }
  });

  it("accepts API clients that send only the access token header", async () => {
    const { client } = await registerAccount(kind);
    const token = client.jar.get("access_token");
    const response = await new Client().get(`${path}/me`, { cookie: `access_token=${token}` });
    expect(response.status).toBe(200);
  });

  it("signs in with the right password and answers every wrong one the same way", async () => {
    const { email, password } = await registerAccount(kind);
    const client = new Client();
    const ok = await client.post(`${path}/login`, { email: email.toUpperCase(), password });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      requiresTwoFactor: false,
      account: { username: expect.any(String) },
    });
    expect(client.jar.get("access_token")).toBeDefined();

    const wrong = await expectProblem(
      await new Client().post(`${path}/login`, { email, password: "wrong-password" }),
      401,
      "UNAUTHORIZED",
    );
    const unknown = await expectProblem(
      await new Client().post(`${path}/login`, { email: uniqueEmail(), password }),
      401,
      "UNAUTHORIZED",
    );
    expect(unknown.detail).toBe(wrong.detail);
  });

  it("refuses a duplicate email or username with 409, case-insensitively", async () => {
    const { username, email } = await registerAccount(kind);
    const again = (body: Record<string, string>) =>
      new Client().post(`${path}/register`, {
        username: uniqueName(),
        email: uniqueEmail(),
        password: strongPassword(),
        ...body,
      });
    const byEmail = await expectProblem(
      await again({ email: email.toUpperCase() }),
      409,
      "CONFLICT",
    );
    expect(byEmail.detail).toContain("email");
    const byName = await expectProblem(
      await again({ username: username.toUpperCase() }),
      409,
      "CONFLICT",
    );
    expect(byName.detail).toContain("username");
  });

  it.each([
    ["a username too short", { username: "ab" }, "json.username"],
    ["a username with spaces", { username: "no spaces" }, "json.username"],
    ["a username too long", { username: "x".repeat(31) }, "json.username"],
    ["an invalid email", { email: "not-an-email" }, "json.email"],
    ["a short password", { password: "short12" }, "json.password"],
    ["a long password", { password: "x".repeat(129) }, "json.password"],
    ["a common password", { password: "password123" }, "json.password"],
    [
      "a common password in full-width letters",
      { password: "ｐａｓｓｗｏｒｄ１２３" },
      "json.password",
    ],
    ["the service's own name", { password: "EdgeMusic2026!" }, "json.password"],
    ["a missing field", { username: undefined }, "json.username"],
  ])("refuses %s with 400 naming the field", async (_name, override, field) => {
    const body = {
      username: uniqueName(),
      email: uniqueEmail(),
      password: strongPassword(),
      ...override,
    };
    const problem = await expectProblem(
      await new Client().post(`${path}/register`, body),
      400,
      "VALIDATION_FAILED",
    );
    expect((problem.errors as Array<{ path: string }>).map((e) => e.path)).toContain(field);
  });

  it("the other kind's refresh token does not refresh this kind", async () => {
    const other = KINDS.find((k) => k !== kind) ?? "user";
    const { client } = await registerAccount(other);
    const token = client.jar.get("refresh_token") ?? "";
    const stranger = new Client();
    stranger.jar.set("refresh_token", token, path);
    await expectProblem(await stranger.post(`${path}/refresh`), 401, "UNAUTHORIZED");
  });
});

describe("GET /api/v1/users/me", () => {
  it("answers the signed-in user, like /users/auth/me", async () => {
    const { client, id } = await registerAccount("user");
    const response = await client.get("/api/v1/users/me");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id });
  });
});

describe("password hashes at the deployment's cost", () => {
  const storedHash = async (kind: (typeof KINDS)[number], id: string) => {
    const { principals } = ACCOUNT_KINDS[kind];
    const [row] = await withDb((db) =>
      db
        .select({ passwordHash: principals.passwordHash })
        .from(principals)
        .where(eq(principals.id, id)),
    );
    return row?.passwordHash ?? "";
  };

  it.each(KINDS)(
    "%s: the standard setting stores argon2id at 19 MiB, 2 passes; the suite's, the least",
    async (kind) => {
      const standard = await registerAccount(
        kind,
        new Client(undefined, { PASSWORD_HASH_COST: "standard" }),
      );
      expect(await storedHash(kind, standard.id)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      // The suite's setting (vitest.config.ts): the same algorithm at its least cost.
      const suite = await registerAccount(kind);
      expect(await storedHash(kind, suite.id)).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
      // Either signs in whatever the current setting: the cost is read from the hash.
      for (const account of [standard, suite]) {
        const response = await new Client().post(`${authPath(kind)}/login`, {
          email: account.email,
          password: account.password,
        });
        expect(response.status).toBe(200);
      }
    },
  );
});
