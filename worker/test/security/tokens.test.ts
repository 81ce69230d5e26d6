import { env } from "cloudflare:workers";
import { users } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { exportJWK, exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../src/env.ts";
import { REFRESH_GRACE_SECONDS } from "../../src/security/sessions.ts";
import { authPath, Client, KINDS, type Registered, registerAccount } from "../support/auth.ts";
import { withDb } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";
import { ageRotation } from "../support/sessions.ts";

// alg: none, a tampered payload, another HMAC key, an expired token and a refresh token in the
// access cookie are in the guard matrix (support/guard-matrix.ts), run against every protected
// route; this file covers the attacks it leaves out.

const secret = () => new TextEncoder().encode((env as Bindings).JWT_SECRET ?? "");
const access = (account: Registered) => account.client.jar.get("access_token") ?? "";
const claimsOf = (token: string) =>
  JSON.parse(atob((token.split(".")[1] ?? "").replace(/-/g, "+").replace(/_/g, "/"))) as JWTPayload;

/** The claims of a real access token, re-signed as told: only the header or key differs. */
async function resign(
  token: string,
  header: Record<string, unknown> & { alg: string },
  key: CryptoKey | Uint8Array,
  change: (claims: JWTPayload) => JWTPayload = (claims) => claims,
) {
  return await new SignJWT(change(claimsOf(token))).setProtectedHeader(header).sign(key);
}

describe.each(KINDS)("%s access tokens under attack", (kind) => {
  const me = `${authPath(kind)}/me`;
  const refused = async (token: string) => {
    const response = await new Client().get(me, { cookie: `access_token=${token}` });
    await expectProblem(response, 401, "UNAUTHORIZED");
  };

  it.each(["RS256", "ES256", "PS256", "EdDSA"] as const)(
    "refuses a token signed with %s by the attacker's key pair",
    async (alg) => {
      const { client } = await registerAccount(kind);
      const { privateKey } = await generateKeyPair(alg);
      await refused(await resign(client.jar.get("access_token") ?? "", { alg }, privateKey));
    },
  );

  it("refuses a token that brings its own public key in the header (jwk)", async () => {
    const account = await registerAccount(kind);
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    const jwk = await exportJWK(publicKey);
    await refused(await resign(access(account), { alg: "RS256", jwk }, privateKey));
  });

  it("refuses HS256 keyed with a public key's PEM (RS/HS confusion)", async () => {
    const account = await registerAccount(kind);
    const { publicKey } = await generateKeyPair("RS256", { extractable: true });
    const pem = new TextEncoder().encode(await exportSPKI(publicKey));
    await refused(await resign(access(account), { alg: "HS256", typ: "JWT" }, pem));
  });

  it.each(["HS384", "HS512"])(
    "refuses %s even with the service's own key (the algorithm is pinned)",
    async (alg) => {
      const account = await registerAccount(kind);
      await refused(await resign(access(account), { alg, typ: "JWT" }, secret()));
    },
  );

  it("refuses a token that is not valid yet (nbf in the future), signed with the real key", async () => {
    const account = await registerAccount(kind);
    const later = Math.floor(Date.now() / 1000) + 120;
    await refused(
      await resign(access(account), { alg: "HS256", typ: "JWT" }, secret(), (claims) => ({
        ...claims,
        nbf: later,
      })),
    );
  });

  it("refuses a token without an expiry, even signed with the real key", async () => {
    const account = await registerAccount(kind);
    const { exp: _exp, ...forever } = claimsOf(access(account));
    await refused(
      await resign(access(account), { alg: "HS256", typ: "JWT" }, secret(), () => forever),
    );
  });

  it("the control: the same re-signing keeps a token valid when nothing is wrong", async () => {
    const account = await registerAccount(kind);
    const same = await resign(access(account), { alg: "HS256", typ: "JWT" }, secret());
    const response = await new Client().get(me, { cookie: `access_token=${same}` });
    expect(response.status).toBe(200);
  });
});

describe.each(KINDS)("%s refresh token stolen and used first by another client", (kind) => {
  const path = authPath(kind);

  it("the victim's next refresh revokes the session: the thief's new tokens die with it", async () => {
    const victim = await registerAccount(kind);
    const stolen = victim.client.jar.get("refresh_token") ?? "";
    // Another address and another browser win the race with the copied token.
    const thief = new Client();
    thief.jar.set("refresh_token", stolen, path);
    const ua = { "user-agent": "curl/8.0 (thief)" };
    expect((await thief.post(`${path}/refresh`, undefined, ua)).status).toBe(200);
    expect((await thief.get(`${path}/me`, ua)).status).toBe(200);

    // The victim still holds the rotated-away token: once the two-tab grace of that rotation has
    // passed (REFRESH_GRACE_SECONDS), using it is the reuse that gives it away.
    await ageRotation(kind, victim.id, REFRESH_GRACE_SECONDS + 1);
    await expectProblem(await victim.client.post(`${path}/refresh`), 401, "UNAUTHORIZED");
    for (const client of [thief, victim.client]) {
      await expectProblem(await client.get(`${path}/me`, ua), 401, "UNAUTHORIZED");
    }
    const thiefRefresh = thief.jar.get("refresh_token");
    expect(thiefRefresh).toBeDefined();
    const again = new Client();
    again.jar.set("refresh_token", thiefRefresh ?? "", path);
    await expectProblem(await again.post(`${path}/refresh`), 401, "UNAUTHORIZED");
  });
});

describe("tokens of an account that no longer exists", () => {
  it("an artist's saved tokens stop working when the account is deleted", async () => {
    const artist = await registerAccount("artist");
    const saved = {
      access: access(artist),
      refresh: artist.client.jar.get("refresh_token") ?? "",
    };
    const deleted = await artist.client.request("DELETE", `/api/v1/artists/${artist.id}`, {
      password: artist.password,
    });
    expect(deleted.status).toBe(204);
    // A copy of the cookies kept elsewhere, not the jar the response just cleared.
    const replay = new Client();
    await expectProblem(
      await replay.get("/api/v1/artists/auth/me", { cookie: `access_token=${saved.access}` }),
      401,
      "UNAUTHORIZED",
    );
    replay.jar.set("refresh_token", saved.refresh, authPath("artist"));
    await expectProblem(await replay.post(`${authPath("artist")}/refresh`), 401, "UNAUTHORIZED");
  });

  it("a user's saved tokens stop working when the row is gone", async () => {
    const user = await registerAccount("user");
    const saved = access(user);
    await withDb((db) => db.delete(users).where(eq(users.id, user.id)));
    await expectProblem(
      await new Client().get("/api/v1/users/me", { cookie: `access_token=${saved}` }),
      401,
      "UNAUTHORIZED",
    );
    await expectProblem(await user.client.post(`${authPath("user")}/refresh`), 401, "UNAUTHORIZED");
  });
});
