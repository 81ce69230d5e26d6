import { describe, expect, it } from "vitest";
import { authPath, Client, uniqueIp } from "../support/auth.ts";
import { appAccount, call, errorCode, json, md5Hex, tokenAuth } from "./support.ts";

const f = "json";
const hex = (text: string) =>
  [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, "0")).join("");

describe("Subsonic credentials: an app password, three ways", () => {
  it("token + salt, plain p, enc: p and the apiKey each sign in, as a listener and as an artist", async () => {
    for (const kind of ["user", "artist"] as const) {
      const account = await appAccount(kind);
      const { username, appPassword } = account;
      const forms = [
        await tokenAuth(username, appPassword),
        // Usernames are case-insensitive, as at sign-in.
        await tokenAuth(username.toUpperCase(), appPassword),
        { u: username, p: appPassword },
        { u: username, p: `enc:${hex(appPassword)}` },
        { apiKey: appPassword },
      ];
      for (const form of forms) {
        expect(await errorCode(await call("ping", { ...form, f }))).toBeUndefined();
      }
    }
  });

  it("records when an app password was last used", async () => {
    const account = await appAccount();
    await call("ping", { apiKey: account.appPassword, f });
    const listed = await account.client.get("/api/v1/users/me/app-passwords");
    const [item] = (await listed.json()) as Array<{ lastUsedAt: string | null }>;
    expect(item?.lastUsedAt).not.toBeNull();
  });

  it("40 for a wrong token, a wrong salt, an unknown user, the account password", async () => {
    const account = await appAccount();
    const good = await tokenAuth(account.username, account.appPassword);
    const cases = [
      { ...good, t: await md5Hex(`${account.appPassword}x${good.s}`) },
      { ...good, s: `${good.s}x` },
      { ...good, u: `${account.username}x` },
      await tokenAuth(account.username, account.password),
      { u: account.username, p: account.password },
      { u: `${account.username}x`, p: account.appPassword },
    ];
    for (const form of cases) expect(await errorCode(await call("ping", { ...form, f }))).toBe(40);
  });

  it("44 for an unknown apiKey; 43 for an apiKey with u, or p with t", async () => {
    const account = await appAccount();
    expect(await errorCode(await call("ping", { apiKey: "nope", f }))).toBe(44);
    const both = { apiKey: account.appPassword, u: account.username, f };
    expect(await errorCode(await call("ping", both))).toBe(43);
    const token = await tokenAuth(account.username, account.appPassword);
    expect(await errorCode(await call("ping", { ...token, p: account.appPassword, f }))).toBe(43);
  });

  it("10 for a missing part; 42 for the web session alone, which this door never reads", async () => {
    expect(await errorCode(await call("ping", { f }))).toBe(10);
    expect(await errorCode(await call("ping", { u: "someone", t: "abc", f }))).toBe(10);
    expect(await errorCode(await call("ping", { u: "someone", f }))).toBe(10);
    const account = await appAccount();
    const cookie = account.client.jar.header("/api/v1/users/me");
    expect(cookie).toContain("access_token");
    const session = await call("ping", { f }, { headers: { cookie: cookie ?? "" } });
    expect(await errorCode(session)).toBe(42);
    const bearer = await call("ping", { f }, { headers: { authorization: "Bearer x" } });
    expect(await errorCode(bearer)).toBe(42);
  });

  it("an app password ends at once when deleted, on a password change, on sign out everywhere, with the account", async () => {
    const ended = async (account: Awaited<ReturnType<typeof appAccount>>) =>
      expect(await errorCode(await call("ping", { apiKey: account.appPassword, f }))).toBe(44);

    const deleted = await appAccount();
    await deleted.client.delete(`/api/v1/users/me/app-passwords/${deleted.appPasswordId}`);
    await ended(deleted);

    const changed = await appAccount();
    await changed.client.post(`${authPath("user")}/password/change`, {
      currentPassword: changed.password,
      newPassword: `${changed.password}-2`,
    });
    await ended(changed);

    const everywhere = await appAccount();
    await everywhere.client.delete(`${authPath("user")}/sessions`);
    await ended(everywhere);

    const gone = await appAccount();
    const removed = await gone.client.request("DELETE", "/api/v1/users/me", {
      password: gone.password,
    });
    expect(removed.status).toBe(204);
    await ended(gone);
  });

  it("limits failures like sign-ins: a network that keeps failing is refused, even the right secret", async () => {
    const account = await appAccount();
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) {
      const wrong = await call("ping", { u: account.username, p: "wrong", f }, { ip });
      expect(await errorCode(wrong)).toBe(40);
    }
    const refused = await json(
      await call("ping", { u: account.username, p: account.appPassword, f }, { ip }),
    );
    expect(refused.error).toMatchObject({ code: 0 });
    expect(refused.error.message).toMatch(/too many/i);
    // Another network is not affected.
    const other = await call("ping", { u: account.username, p: account.appPassword, f });
    expect(await errorCode(other)).toBeUndefined();
  });

  it("is never a REST credential, and the REST session is never a Subsonic one", async () => {
    const account = await appAccount();
    const stranger = new Client();
    const rest = await stranger.get("/api/v1/users/me", {
      authorization: `Basic ${btoa(`${account.username}:${account.appPassword}`)}`,
    });
    expect(rest.status).toBe(401);
  });
});
