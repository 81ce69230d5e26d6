import { describe, expect, it } from "vitest";
import { describeDevice } from "../../../src/features/auth/sessions/service.ts";
import { authPath, Client, KINDS, registerAccount } from "../../support/auth.ts";
import { expectProblem } from "../../support/problem.ts";

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

interface SessionItem {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  device: string;
  current: boolean;
}

describe("describeDevice", () => {
  it("names the browser, the system and the kind of device; a tool by its product; nothing as unknown", () => {
    expect(describeDevice(FIREFOX)).toBe("Firefox on Linux, desktop");
    expect(describeDevice(IPHONE)).toBe("Safari on iOS, mobile");
    expect(describeDevice("curl/8.5.0")).toBe("curl/8.5.0");
    expect(describeDevice(null)).toBe("Unknown device");
    expect(describeDevice("")).toBe("Unknown device");
  });
});

describe.each(KINDS)("%s sessions a person sees and ends", (kind) => {
  const path = authPath(kind);

  /** The account signed in once more, from another client with a user agent of its own. */
  const signInAgain = async (account: { email: string; password: string }, agent: string) => {
    const client = new Client();
    const answer = await client.post(
      `${path}/login`,
      { email: account.email, password: account.password },
      { "user-agent": agent },
    );
    expect(answer.status).toBe(200);
    return client;
  };

  const list = async (client: Client) => {
    const answer = await client.get(`${path}/sessions`);
    expect(answer.status).toBe(200);
    return (await answer.json()) as SessionItem[];
  };

  it("lists the live sessions, the most recently used first, marking the caller's", async () => {
    const account = await registerAccount(kind);
    const phone = await signInAgain(account, IPHONE);
    const fromPhone = await list(phone);
    expect(fromPhone).toHaveLength(2);
    expect(fromPhone[0]).toMatchObject({ device: "Safari on iOS, mobile", current: true });
    expect(fromPhone[1]?.current).toBe(false);
    for (const item of fromPhone) {
      expect(Date.parse(item.createdAt)).not.toBeNaN();
      expect(Date.parse(item.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(item.createdAt));
    }
    // A refresh makes a session the most recently used.
    expect((await account.client.post(`${path}/refresh`)).status).toBe(200);
    const fromFirst = await list(account.client);
    expect(fromFirst.map((s) => s.current)).toEqual([true, false]);
    expect(fromFirst.map((s) => s.id).sort()).toEqual(fromPhone.map((s) => s.id).sort());
    // Another account's sessions are not listed.
    const stranger = await registerAccount(kind);
    expect((await list(stranger.client)).map((s) => s.id)).not.toContain(fromPhone[0]?.id);
  });

  it("ends one session: its next request answers 401 at once; a stranger's id is 404", async () => {
    const account = await registerAccount(kind);
    const laptop = await signInAgain(account, FIREFOX);
    const laptopSession = (await list(laptop)).find((s) => s.current)?.id ?? "";
    expect((await account.client.delete(`${path}/sessions/${laptopSession}`)).status).toBe(204);
    await expectProblem(await laptop.get(`${path}/me`), 401, "UNAUTHORIZED");
    await expectProblem(await laptop.post(`${path}/refresh`), 401, "UNAUTHORIZED");
    await expectProblem(
      await account.client.delete(`${path}/sessions/${laptopSession}`),
      404,
      "NOT_FOUND",
    );
    // Someone else's session cannot be ended, and it says nothing about it.
    const stranger = await registerAccount(kind);
    const theirs = (await list(stranger.client))[0]?.id ?? "";
    await expectProblem(
      await account.client.delete(`${path}/sessions/${theirs}`),
      404,
      "NOT_FOUND",
    );
    expect((await stranger.client.get(`${path}/me`)).status).toBe(200);
    await expectProblem(
      await account.client.delete(`${path}/sessions/not-a-uuid`),
      400,
      "VALIDATION_FAILED",
    );
  });

  it("ends the caller's own session like a sign-out, clearing its cookies", async () => {
    const account = await registerAccount(kind);
    const own = (await list(account.client))[0]?.id ?? "";
    const ended = await account.client.delete(`${path}/sessions/${own}`);
    expect(ended.status).toBe(204);
    expect(ended.headers.getSetCookie().join("\n")).toMatch(/access_token=;.*Max-Age=0/);
    await expectProblem(await account.client.get(`${path}/me`), 401, "UNAUTHORIZED");
  });

  it("ends every other session and keeps the caller's", async () => {
    const account = await registerAccount(kind);
    const others = [await signInAgain(account, FIREFOX), await signInAgain(account, IPHONE)];
    const answer = await account.client.delete(`${path}/sessions`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ended: 2 });
    for (const other of others) {
      await expectProblem(await other.get(`${path}/me`), 401, "UNAUTHORIZED");
    }
    expect((await account.client.get(`${path}/me`)).status).toBe(200);
    expect((await list(account.client)).map((s) => s.current)).toEqual([true]);
  });

  it("needs a signed-in caller", async () => {
    await expectProblem(await new Client().get(`${path}/sessions`), 401, "UNAUTHORIZED");
    await expectProblem(await new Client().delete(`${path}/sessions`), 401, "UNAUTHORIZED");
  });
});
