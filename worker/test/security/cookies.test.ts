import { describe, expect, it } from "vitest";
import { authPath, Client, KINDS, type Registered, registerAccount } from "../support/auth.ts";
import { expectProblem } from "../support/problem.ts";

/**
 * Cookie tossing: a sibling subdomain (or a plain-http page of the same host) can set cookies
 * that the browser sends to the API beside the real ones. The Cookie header carries no path or
 * domain, only the order (longest path first), so a tossed `access_token=<attacker's session>` at
 * `Path=/api/v1/tracks` arrives before the victim's own. A request with two values for one
 * credential cookie is refused: the service cannot tell whose it is, and acting in either account
 * would be wrong for one of them.
 */
const access = (account: Registered) => account.client.jar.get("access_token") ?? "";
const refresh = (account: Registered) => account.client.jar.get("refresh_token") ?? "";
/** The victim's token with another signature: what a tosser without the key can make. */
const forge = (token: string) => `${token.split(".").slice(0, 2).join(".")}.${"A".repeat(43)}`;

describe.each(KINDS)("%s cookie tossing", (kind) => {
  const me = `${authPath(kind)}/me`;
  const as = (cookie: string) => new Client().get(me, { cookie });

  it("refuses a valid and a forged access_token in one header, in either order", async () => {
    const victim = await registerAccount(kind);
    const valid = access(victim);
    for (const cookie of [
      `access_token=${valid}; access_token=${forge(valid)}`,
      `access_token=${forge(valid)}; access_token=${valid}`,
    ]) {
      const body = await expectProblem(await as(cookie), 401, "UNAUTHORIZED");
      expect(JSON.stringify(body)).not.toContain(victim.username);
    }
    // Alone, the same token still works: the refusal was about the duplicate.
    expect((await as(`access_token=${valid}`)).status).toBe(200);
  });

  it("never acts in the tosser's account: two valid sessions in one header are refused", async () => {
    const victim = await registerAccount(kind);
    const attacker = await registerAccount(kind);
    for (const cookie of [
      // The tossed cookie has the longer path, so browsers send it first.
      `access_token=${access(attacker)}; access_token=${access(victim)}`,
      `access_token=${access(victim)}; access_token=${access(attacker)}`,
    ]) {
      const body = await expectProblem(await as(cookie), 401, "UNAUTHORIZED");
      const text = JSON.stringify(body);
      expect(text).not.toContain(victim.id);
      expect(text).not.toContain(attacker.id);
    }
  });

  it("refuses duplicates however the names are spaced or the values quoted", async () => {
    const victim = await registerAccount(kind);
    const attacker = await registerAccount(kind);
    const cookie = ` access_token = "${access(attacker)}" ;access_token=${access(victim)}`;
    await expectProblem(await as(cookie), 401, "UNAUTHORIZED");
  });

  it("does not take look-alike names for the access cookie", async () => {
    const victim = await registerAccount(kind);
    const attacker = await registerAccount(kind);
    for (const name of [
      "Access_Token",
      "ACCESS_TOKEN",
      "__Host-access_token",
      "__Secure-access_token",
      "access_token2",
      "xaccess_token",
      "access%5Ftoken",
    ]) {
      // Alone, a look-alike is no credential at all...
      await expectProblem(await as(`${name}=${access(victim)}`), 401, "UNAUTHORIZED");
      // ...and beside the real cookie it neither wins nor counts as a duplicate.
      const response = await as(`${name}=${access(attacker)}; access_token=${access(victim)}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: victim.id });
    }
  });

  it("refuses a tossed refresh_token beside the real one, and rotates neither session", async () => {
    const victim = await registerAccount(kind);
    const attacker = await registerAccount(kind);
    const path = `${authPath(kind)}/refresh`;
    for (const cookie of [
      `refresh_token=${refresh(attacker)}; refresh_token=${refresh(victim)}`,
      `refresh_token=${refresh(victim)}; refresh_token=${refresh(attacker)}`,
    ]) {
      const response = await new Client().post(path, undefined, { cookie });
      await expectProblem(response, 401, "UNAUTHORIZED");
      // Not even a clearing: it would delete only our own cookie and leave the tossed one alone.
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    // Neither token was used, so neither counts as replayed: both still refresh their own.
    for (const account of [victim, attacker]) {
      expect((await account.client.post(path)).status).toBe(200);
      expect((await account.client.get(me)).status).toBe(200);
    }
  });

  it("signing out with a tossed cookie beside the real one still ends the real session", async () => {
    const victim = await registerAccount(kind);
    const attacker = await registerAccount(kind);
    const saved = access(victim);
    const out = await new Client().post(`${authPath(kind)}/logout`, undefined, {
      cookie: `access_token=${access(attacker)}; access_token=${saved}`,
    });
    expect(out.status).toBe(204);
    await expectProblem(await as(`access_token=${saved}`), 401, "UNAUTHORIZED");
  });
});
