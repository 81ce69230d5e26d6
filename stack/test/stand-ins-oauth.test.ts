import { createHash, randomBytes, randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { freePort } from "../src/ports.ts";
import { OAUTH_TEST_CLIENTS, type OAuthProvider, startStandIns } from "../src/stand-ins/index.ts";

const base = inject("infra").standIns.url;
const REDIRECT_URI = "http://localhost:8787/api/v1/auth/callback?from=test";

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Follows the client's redirect to the consent screen, as a browser would, and answers its 302. */
async function authorize(
  provider: OAuthProvider,
  params: Record<string, string> = {},
  root = base,
): Promise<{ response: Response; location: URL | undefined; state: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const state = randomUUID();
  const query = new URLSearchParams({
    response_type: "code",
    client_id: OAUTH_TEST_CLIENTS[provider].clientId,
    redirect_uri: REDIRECT_URI,
    scope: provider === "google" ? "openid email profile" : "email,public_profile",
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...params,
  });
  const response = await fetch(`${root}/oauth/${provider}/authorize?${query}`, {
    redirect: "manual",
  });
  const header = response.headers.get("location");
  return { response, location: header ? new URL(header) : undefined, state, verifier };
}

async function exchange(
  provider: OAuthProvider,
  form: Record<string, string>,
  options: { basic?: [string, string]; root?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (options.basic)
    headers.authorization = `Basic ${Buffer.from(options.basic.join(":")).toString("base64")}`;
  const client = OAUTH_TEST_CLIENTS[provider];
  const credentials: Record<string, string> = options.basic
    ? {}
    : { client_id: client.clientId, client_secret: client.clientSecret };
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    redirect_uri: REDIRECT_URI,
    ...credentials,
    ...form,
  });
  return await fetch(`${options.root ?? base}/oauth/${provider}/token`, {
    method: "POST",
    headers,
    body,
  });
}

async function signIn(provider: OAuthProvider, params: Record<string, string> = {}) {
  const { location, verifier } = await authorize(provider, params);
  const code = location?.searchParams.get("code") ?? "";
  const response = await exchange(provider, { code, code_verifier: verifier });
  const { access_token } = (await response.json()) as { access_token: string };
  return access_token;
}

describe("the OAuth provider stand-ins", () => {
  it("google: authorization code + PKCE round trip to the OpenID userinfo", async () => {
    const sub = `g-${randomUUID()}`;
    const identity = { sub, email: "ada@example.com", email_verified: "false", name: "Ada" };
    const { response, location, state, verifier } = await authorize("google", identity);
    expect(response.status).toBe(302);
    expect(`${location?.origin}${location?.pathname}`).toBe(
      "http://localhost:8787/api/v1/auth/callback",
    );
    expect(location?.searchParams.get("from")).toBe("test");
    expect(location?.searchParams.get("state")).toBe(state);
    const code = location?.searchParams.get("code") ?? "";

    const tokenResponse = await exchange("google", { code, code_verifier: verifier });
    expect(tokenResponse.status).toBe(200);
    expect(tokenResponse.headers.get("cache-control")).toBe("no-store");
    const tokens = (await tokenResponse.json()) as Record<string, unknown>;
    expect(tokens).toMatchObject({
      token_type: "Bearer",
      expires_in: 3600,
      scope: "openid email profile",
    });

    const profile = await fetch(`${base}/oauth/google/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(profile.status).toBe(200);
    expect(await profile.json()).toEqual({
      sub,
      email: "ada@example.com",
      email_verified: false,
      name: "Ada",
      picture: expect.stringMatching(/^https:\/\//),
    });
  });

  it("facebook: round trip with HTTP Basic client auth to the Graph /me node", async () => {
    const identity = { sub: "1234567890", email: "bo@example.com", name: "Bo" };
    const { location, state, verifier } = await authorize("facebook", identity);
    expect(location?.searchParams.get("state")).toBe(state);
    const { clientId, clientSecret } = OAUTH_TEST_CLIENTS.facebook;
    const tokenResponse = await exchange(
      "facebook",
      { code: location?.searchParams.get("code") ?? "", code_verifier: verifier },
      { basic: [clientId, clientSecret] },
    );
    expect(tokenResponse.status).toBe(200);
    const { access_token } = (await tokenResponse.json()) as { access_token: string };

    const me = await fetch(`${base}/oauth/facebook/me?fields=id,name,email`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(await me.json()).toEqual({ id: "1234567890", name: "Bo", email: "bo@example.com" });
    const byQuery = await fetch(
      `${base}/oauth/facebook/me?fields=name&access_token=${access_token}`,
    );
    expect(await byQuery.json()).toEqual({ id: "1234567890", name: "Bo" });
  });

  it("an account without an address signs in without email", async () => {
    const token = await signIn("google", { email: "" });
    const profile = await fetch(`${base}/oauth/google/userinfo`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await profile.json()).not.toHaveProperty("email");
  });

  it("refuses a wrong code_verifier, another redirect_uri and an expired code (invalid_grant)", async () => {
    const wrongVerifier = await authorize("google");
    const code = wrongVerifier.location?.searchParams.get("code") ?? "";
    const response = await exchange("google", { code, code_verifier: pkce().verifier });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_grant" });

    const otherRedirect = await authorize("google");
    const redirected = await exchange("google", {
      code: otherRedirect.location?.searchParams.get("code") ?? "",
      code_verifier: otherRedirect.verifier,
      redirect_uri: "http://localhost:8787/elsewhere",
    });
    expect(await redirected.json()).toMatchObject({ error: "invalid_grant" });

    let now = Date.now();
    const port = await freePort();
    const clocked = await startStandIns({ port, log: () => {}, now: () => now });
    try {
      const late = await authorize("google", {}, clocked.url);
      now += 61_000;
      const expired = await exchange(
        "google",
        { code: late.location?.searchParams.get("code") ?? "", code_verifier: late.verifier },
        { root: clocked.url },
      );
      expect(await expired.json()).toMatchObject({
        error: "invalid_grant",
        error_description: expect.stringMatching(/expired/),
      });
    } finally {
      await clocked.stop();
    }
  });

  it("a code works once; its replay fails and revokes the token it gave", async () => {
    const { location, verifier } = await authorize("google");
    const form = { code: location?.searchParams.get("code") ?? "", code_verifier: verifier };
    const first = await exchange("google", form);
    const { access_token } = (await first.json()) as { access_token: string };
    const replay = await exchange("google", form);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
    const profile = await fetch(`${base}/oauth/google/userinfo`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(profile.status).toBe(401);
    expect(await profile.json()).toMatchObject({ error: "invalid_token" });
  });

  it("refuses a wrong client secret (401 invalid_client), in the body or as Basic", async () => {
    const inBody = await authorize("google");
    const response = await exchange("google", {
      code: inBody.location?.searchParams.get("code") ?? "",
      code_verifier: inBody.verifier,
      client_secret: "not-the-secret",
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "invalid_client" });

    const basic = await authorize("facebook");
    const viaBasic = await exchange(
      "facebook",
      { code: basic.location?.searchParams.get("code") ?? "", code_verifier: basic.verifier },
      { basic: [OAUTH_TEST_CLIENTS.facebook.clientId, "not-the-secret"] },
    );
    expect(viaBasic.status).toBe(401);
    expect(viaBasic.headers.get("www-authenticate")).toMatch(/^Basic /);
  });

  it("deny=1 redirects with error=access_denied and the state, without a code", async () => {
    const { response, location, state } = await authorize("facebook", { deny: "1" });
    expect(response.status).toBe(302);
    expect(location?.searchParams.get("error")).toBe("access_denied");
    expect(location?.searchParams.get("state")).toBe(state);
    expect(location?.searchParams.has("code")).toBe(false);
  });

  it.each([
    ["no redirect_uri", { redirect_uri: "" }],
    ["response_type=token", { response_type: "token" }],
    ["no code_challenge", { code_challenge: "" }],
    ["code_challenge_method=plain", { code_challenge_method: "plain" }],
    ["an unknown client_id", { client_id: "someone-else" }],
  ])("answers %s with a 400 page, never a redirect", async (_case, params) => {
    const { response, location } = await authorize("google", params);
    expect(response.status).toBe(400);
    expect(location).toBeUndefined();
  });

  it("profiles need a valid token of the same provider (401)", async () => {
    const missing = await fetch(`${base}/oauth/google/userinfo`);
    expect(missing.status).toBe(401);
    const googleToken = await signIn("google");
    const crossed = await fetch(`${base}/oauth/facebook/me`, {
      headers: { authorization: `Bearer ${googleToken}` },
    });
    expect(crossed.status).toBe(401);
    expect(await crossed.json()).toMatchObject({ error: { code: 190 } });
  });
});
