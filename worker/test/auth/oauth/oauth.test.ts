import { describe, expect, it } from "vitest";
import type { PrincipalKind } from "../../../src/security/account-kinds.ts";
import {
  app,
  authPath,
  Client,
  earlyInAStep,
  KINDS,
  mailedToken,
  mailedVerificationToken,
  registerAccount,
  strongPassword,
  totpCode,
  turnOnTwoFactor,
  uniqueEmail,
} from "../../support/auth.ts";
import { send, testBindings } from "../../support/env.ts";
import { expectProblem } from "../../support/problem.ts";

const FRONTEND = "http://localhost:5173";

interface Identity {
  sub?: string;
  email?: string;
  email_verified?: "true" | "false";
  name?: string;
  deny?: "1";
}

/**
 * The browser's trip: the Worker's step 1, the provider's consent (the stand-in picks the
 * identity from extra parameters, as a person would on the consent screen), the callback.
 */
async function signInWith(
  client: Client,
  kind: PrincipalKind,
  provider: "google" | "facebook",
  identity: Identity,
  tamper: (callback: URL) => void = () => {},
) {
  const start = await client.get(`${authPath(kind)}/oauth/${provider}`);
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("location") ?? "");
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  for (const [key, value] of Object.entries(identity)) authorize.searchParams.set(key, value);
  const consent = await fetch(authorize, { redirect: "manual" });
  expect(consent.status).toBe(302);
  const callback = new URL(consent.headers.get("location") ?? "");
  tamper(callback);
  const done = await client.get(`${callback.pathname}${callback.search}`);
  expect(done.status).toBe(302);
  return { done, location: new URL(done.headers.get("location") ?? ""), callback };
}

const me = async (client: Client, kind: PrincipalKind) => {
  const response = await client.get(`${authPath(kind)}/me`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe.each(KINDS)("%s OAuth sign-in", (kind) => {
  it("creates an account for a new identity, then signs the same identity into it again", async () => {
    const email = uniqueEmail();
    const identity: Identity = { sub: crypto.randomUUID(), email, name: "Zoë Example" };
    const first = new Client();
    const { location } = await signInWith(first, kind, "google", identity);
    expect(location.origin).toBe(FRONTEND);
    expect(location.searchParams.get("error")).toBeNull();
    const created = await me(first, kind);
    expect(created.status).toBe(200);
    expect(created.body.username).toMatch(/^Zoe\.Example/);
    if (kind === "user") expect(created.body.email).toBe(email);

    const again = new Client();
    await signInWith(again, kind, "google", identity);
    expect((await me(again, kind)).body.id).toBe(created.body.id);
  });

  it("takes over an account whose address was never proven, ending what its registrant had", async () => {
    // Someone registered the address first (a trap for its owner), with a password and a session.
    const squatter = await registerAccount(kind);
    const owner = new Client();
    await signInWith(owner, kind, "google", { sub: crypto.randomUUID(), email: squatter.email });
    expect((await me(owner, kind)).body.id).toBe(squatter.id);
    // The unproven password and the squatter's session no longer work.
    expect((await me(squatter.client, kind)).status).toBe(401);
    const login = await new Client().post(`${authPath(kind)}/login`, {
      email: squatter.email,
      password: squatter.password,
    });
    expect(login.status).toBe(401);
  });

  it("links to an account whose address is proven, keeping its password", async () => {
    const account = await registerAccount(kind);
    // A completed password reset proves the address.
    await new Client().post(`${authPath(kind)}/password/forgot`, { email: account.email });
    const token = (await mailedToken(account.email)) ?? "";
    const password = strongPassword();
    expect(
      (await new Client().post(`${authPath(kind)}/password/reset`, { token, password })).status,
    ).toBe(200);
    const client = new Client();
    await signInWith(client, kind, "google", { sub: crypto.randomUUID(), email: account.email });
    expect((await me(client, kind)).body.id).toBe(account.id);
    const login = await new Client().post(`${authPath(kind)}/login`, {
      email: account.email,
      password,
    });
    expect(login.status).toBe(200);
  });

  it("never links by a Facebook address (Facebook does not say it was confirmed)", async () => {
    const existing = await registerAccount(kind);
    const client = new Client();
    await signInWith(client, kind, "facebook", { sub: crypto.randomUUID(), email: existing.email });
    const account = await me(client, kind);
    expect(account.status).toBe(200);
    expect(account.body.id).not.toBe(existing.id);
  });

  it("never links by an unverified email: a separate account is made", async () => {
    const existing = await registerAccount(kind);
    const client = new Client();
    await signInWith(client, kind, "google", {
      sub: crypto.randomUUID(),
      email: existing.email,
      email_verified: "false",
    });
    const account = await me(client, kind);
    expect(account.status).toBe(200);
    expect(account.body.id).not.toBe(existing.id);
  });

  it("redirects with error=access_denied when the person declines", async () => {
    const client = new Client();
    const { location } = await signInWith(client, kind, "google", { deny: "1" });
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(client.jar.get("access_token")).toBeUndefined();
  });

  it("redirects with error=invalid_state for a mismatched state or another browser", async () => {
    const tampered = new Client();
    const { location } = await signInWith(tampered, kind, "google", {}, (callback) =>
      callback.searchParams.set("state", "forged-state-value"),
    );
    expect(location.searchParams.get("error")).toBe("invalid_state");
    expect(tampered.jar.get("access_token")).toBeUndefined();

    // A callback replayed (or sent by a browser that never started the flow): no state cookie.
    const { callback } = await signInWith(new Client(), kind, "google", {});
    const replay = await new Client().get(`${callback.pathname}${callback.search}`);
    expect(new URL(replay.headers.get("location") ?? "").searchParams.get("error")).toBe(
      "invalid_state",
    );
  });

  it("answers 404 for an unknown provider", async () => {
    await expectProblem(
      await new Client().get(`${authPath(kind)}/oauth/myspace`),
      404,
      "NOT_FOUND",
    );
    await expectProblem(
      await new Client().get(`${authPath(kind)}/oauth/myspace/callback?code=x&state=y`),
      404,
      "NOT_FOUND",
    );
  });

  it("gives a second identity with a taken name a free username of its own", async () => {
    const name = `Same Name ${crypto.randomUUID().slice(0, 8)}`;
    const first = new Client();
    await signInWith(first, kind, "google", {
      sub: crypto.randomUUID(),
      email: uniqueEmail(),
      name,
    });
    const second = new Client();
    await signInWith(second, kind, "google", {
      sub: crypto.randomUUID(),
      email: uniqueEmail(),
      name,
    });
    const [a, b] = [(await me(first, kind)).body, (await me(second, kind)).body];
    expect(a.username).toBe(name.replaceAll(" ", "."));
    expect(b.username).toMatch(new RegExp(`^${name.replaceAll(" ", "\\.")}-[A-Za-z0-9]{4}$`));
    expect(b.id).not.toBe(a.id);
  });

  it("makes one account when the same identity signs in for the first time twice at once", async () => {
    const identity: Identity = { sub: crypto.randomUUID(), email: uniqueEmail() };
    const clients = [new Client(), new Client(), new Client()];
    await Promise.all(clients.map((client) => signInWith(client, kind, "google", identity)));
    const ids = await Promise.all(clients.map(async (client) => (await me(client, kind)).body.id));
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toEqual(expect.any(String));
  });

  it("takes over an unproven account with a pending (never verified) 2FA secret, dropping it", async () => {
    const squatter = await registerAccount(kind);
    await squatter.client.post(`${authPath(kind)}/2fa/enable`, { password: squatter.password });
    const owner = new Client();
    const { location } = await signInWith(owner, kind, "google", {
      sub: crypto.randomUUID(),
      email: squatter.email,
    });
    expect(location.searchParams.get("twoFactor")).toBeNull();
    expect((await me(owner, kind)).body).toMatchObject({
      id: squatter.id,
      twoFactorEnabled: false,
    });
    // The squatter's secret is gone: the owner starts 2FA from scratch.
    await expectProblem(
      await owner.post(`${authPath(kind)}/2fa/verify`, { code: "123456" }),
      409,
      "CONFLICT",
    );
  });

  it("over https, names its flow cookies with the __Host- prefix (Secure, Path=/), one per kind", async () => {
    const https = testBindings({ PUBLIC_BASE_URL: "https://music.example" });
    const start = await send(app, `${authPath(kind)}/oauth/google`, { redirect: "manual" }, https);
    expect(start.status).toBe(302);
    const cookie = start.headers.getSetCookie().find((c) => c.startsWith("__Host-"));
    expect(cookie).toMatch(new RegExp(`^__Host-oauth_state_${kind}=`));
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).not.toMatch(/Domain=/i);
    // The callback reads it back under that name: a bare `oauth_state` is not the state.
    const state = new URL(start.headers.get("location") ?? "").searchParams.get("state") ?? "";
    const callback = `${authPath(kind)}/oauth/google/callback?code=x&state=${state}`;
    const bare = await send(
      app,
      callback,
      {
        redirect: "manual",
        headers: { cookie: `oauth_state=${cookie?.split(";")[0]?.split("=")[1]}` },
      },
      https,
    );
    expect(new URL(bare.headers.get("location") ?? "").searchParams.get("error")).toBe(
      "invalid_state",
    );
    // Under its prefixed name the state matches (the made-up code then fails at the provider).
    const prefixed = await send(
      app,
      callback,
      { redirect: "manual", headers: { cookie: cookie?.split(";")[0] ?? "" } },
      https,
    );
    expect(new URL(prefixed.headers.get("location") ?? "").searchParams.get("error")).toBe(
      "provider_error",
    );
  });

  it("takes over an unproven account even with an active second factor, which goes with it", async () => {
    const squatter = await registerAccount(kind);
    await turnOnTwoFactor(kind, squatter);
    const owner = new Client();
    const { location } = await signInWith(owner, kind, "google", {
      sub: crypto.randomUUID(),
      email: squatter.email,
    });
    expect(location.searchParams.get("twoFactor")).toBeNull();
    expect((await me(owner, kind)).body).toMatchObject({
      id: squatter.id,
      twoFactorEnabled: false,
      emailVerified: true,
    });
    const login = await new Client().post(`${authPath(kind)}/login`, {
      email: squatter.email,
      password: squatter.password,
    });
    await expectProblem(login, 401, "UNAUTHORIZED");
  });

  it("holds a 2FA account whose address is proven at the second factor, then signs in with a code", async () => {
    await earlyInAStep();
    const account = await registerAccount(kind);
    const token = await mailedVerificationToken(account.email);
    expect((await new Client().post(`${authPath(kind)}/email/verify`, { token })).status).toBe(200);
    const enabling = await account.client.post(`${authPath(kind)}/2fa/enable`, {
      password: account.password,
    });
    const setup = (await enabling.json()) as {
      secret: string;
    };
    const code = (offset: number) => totpCode(setup.secret, offset);
    expect(
      (await account.client.post(`${authPath(kind)}/2fa/verify`, { code: await code(-1) })).status,
    ).toBe(200);

    const client = new Client();
    const { location } = await signInWith(client, kind, "google", {
      sub: crypto.randomUUID(),
      email: account.email,
    });
    expect(location.searchParams.get("twoFactor")).toBe("required");
    expect(client.jar.get("access_token")).toBeUndefined();
    expect(client.jar.get("pending_2fa")).toBeDefined();
    expect((await me(client, kind)).status).toBe(401);

    await expectProblem(
      await client.post(`${authPath(kind)}/2fa/complete`, { code: "000000" }),
      401,
      "UNAUTHORIZED",
    );
    await expectProblem(
      await new Client().post(`${authPath(kind)}/2fa/complete`, { code: await code(0) }),
      401,
      "UNAUTHORIZED",
    );
    const completed = await client.post(`${authPath(kind)}/2fa/complete`, { code: await code(0) });
    expect(completed.status).toBe(200);
    expect((await me(client, kind)).body.id).toBe(account.id);
    expect(client.jar.get("pending_2fa")).toBeUndefined();
  });
});
