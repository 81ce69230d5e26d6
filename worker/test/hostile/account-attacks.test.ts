// Attacks on accounts, played end to end as an attacker would: guessing from many networks,
// telling accounts apart by their answers, squatting an address before its owner, keeping a
// stolen session alive, replaying a captured re-authentication.
import { describe, expect, it } from "vitest";
import {
  authPath,
  Client,
  earlyInAStep,
  KINDS,
  mailedTo,
  mailedToken,
  mailedVerificationToken,
  type Registered,
  registerAccount,
  signInWithProvider,
  strongPassword,
  totpCode,
  turnOnTwoFactor,
  uniqueEmail,
  uniqueIp,
} from "../support/auth.ts";
import { expectProblem } from "../support/problem.ts";

/** A random IPv6 /64 as a prefix: `${prefix}${n}` are addresses of one customer's network. */
const ipv6Network = () => {
  const group = () => Math.floor(Math.random() * 0x10000).toString(16);
  return `2001:db8:${group()}:${group()}::`;
};

/** What an answer tells its reader, without what differs on every request or every second. */
async function visible(response: Response) {
  const body = (await response.json()) as Record<string, unknown>;
  const { requestId: _, instance: __, retryAfterSeconds, ...rest } = body;
  // The seconds left depend on when each script's window opened, not on the account.
  if (retryAfterSeconds !== undefined) rest.retryAfter = (retryAfterSeconds as number) > 0;
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after") !== null,
    body: rest,
  };
}

/** Sends `work` for every item, `width` at a time. */
async function inWaves<T>(items: T[], width: number, work: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += width) {
    await Promise.all(items.slice(i, i + width).map(work));
  }
}

describe.each(KINDS)("%s account attacks", (kind) => {
  const path = authPath(kind);
  const login = (ip: string, body: Record<string, unknown>) =>
    new Client(ip).post(`${path}/login`, body);

  it("guessing from over a hundred networks leaves each one try, one per /64, and never stops the owner", async () => {
    const { email, password } = await registerAccount(kind);
    const guessers = Array.from({ length: 101 }, () => uniqueIp());
    await inWaves(guessers, 10, async (ip) => {
      const guess = await login(ip, { email, password: `guess-${ip}` });
      expect(guess.status).toBe(401);
    });
    // Past 100 failures, a network has one try: its second, even with the right password, waits.
    const used = guessers[0] ?? "";
    await expectProblem(await login(used, { email, password }), 429, "RATE_LIMITED");
    // The addresses of one IPv6 /64 are one network: they share that one try.
    const network = ipv6Network();
    expect((await login(`${network}1`, { email, password: "another guess" })).status).toBe(401);
    await expectProblem(await login(`${network}2`, { email, password }), 429, "RATE_LIMITED");
    // The owner, on a network that has not failed against the account, signs in at once.
    expect((await login(uniqueIp(), { email, password })).status).toBe(200);
  });

  it("answers the same for an account that exists and one that does not, limits included", async () => {
    const existing = await registerAccount(kind);
    const script = async (email: string) => {
      const seen: Array<Awaited<ReturnType<typeof visible>>> = [];
      const networks = Array.from({ length: 7 }, () => uniqueIp());
      for (const ip of networks) {
        for (let i = 0; i < 3; i++)
          seen.push(await visible(await login(ip, { email, password: `x${i}` })));
      }
      // Past 20 failures each network has 3 tries: the fourth waits, account or not.
      seen.push(await visible(await login(networks[0] ?? "", { email, password: "x3" })));
      const forgot = await new Client().post(`${path}/password/forgot`, { email });
      seen.push(await visible(forgot));
      return seen;
    };
    const forExisting = await script(existing.email);
    const forNobody = await script(uniqueEmail());
    expect(forNobody).toEqual(forExisting);
    expect(forExisting.at(-2)?.status).toBe(429);
    expect(forExisting.at(-1)?.status).toBe(202);
  });

  it("a squatter who registered the owner's address first keeps nothing once the owner signs in through a provider", async () => {
    const squatter = await registerAccount(kind);
    const { recoveryCodes } = await turnOnTwoFactor(kind, squatter);
    const forgot = await new Client().post(`${path}/password/forgot`, { email: squatter.email });
    expect(forgot.status).toBe(202);
    let resetToken: string | undefined;
    for (let i = 0; i < 50 && !resetToken; i++) {
      resetToken = await mailedToken(squatter.email);
      if (!resetToken) await new Promise((r) => setTimeout(r, 50));
    }
    expect(resetToken).toBeDefined();

    const owner = await signInWithProvider(kind, new Client(), { email: squatter.email });
    const mine = await owner.get(`${path}/me`);
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ twoFactorEnabled: false, emailVerified: true });

    // The squatter's session, password, recovery codes and reset link are all gone.
    await expectProblem(await squatter.client.get(`${path}/me`), 401, "UNAUTHORIZED");
    await expectProblem(await squatter.client.post(`${path}/refresh`), 401, "UNAUTHORIZED");
    const withCode = await new Client().post(`${path}/login`, {
      email: squatter.email,
      password: squatter.password,
      code: recoveryCodes[0],
    });
    await expectProblem(withCode, 401, "UNAUTHORIZED");
    const reset = await new Client().post(`${path}/password/reset`, {
      token: resetToken,
      password: "the squatter's new passphrase",
    });
    await expectProblem(reset, 400, "VALIDATION_FAILED");
    expect((await owner.get(`${path}/me`)).status).toBe(200);
  });

  it("a stolen session ended by its owner is refused at its next request, read, write or refresh", async () => {
    const victim = await registerAccount(kind);
    const thief = new Client();
    for (const name of ["access_token", "refresh_token"]) {
      thief.jar.set(name, victim.client.jar.get(name) ?? "", "/");
    }
    expect((await thief.get(`${path}/me`)).status).toBe(200);
    // The owner signs in on another device and signs every other session out.
    const owner = new Client();
    const signedIn = await owner.post(`${path}/login`, {
      email: victim.email,
      password: victim.password,
    });
    expect(signedIn.status).toBe(200);
    expect((await owner.delete(`${path}/sessions`)).status).toBe(200);
    // The thief's access token has minutes left; it is refused all the same.
    await expectProblem(await thief.get(`${path}/me`), 401, "UNAUTHORIZED");
    await expectProblem(await thief.get(`${path}/sessions`), 401, "UNAUTHORIZED");
    await expectProblem(await thief.post(`${path}/refresh`), 401, "UNAUTHORIZED");
    await expectProblem(
      await thief.post(`${path}/email/change`, {
        email: uniqueEmail(),
        password: victim.password,
      }),
      401,
      "UNAUTHORIZED",
    );
    expect((await owner.get(`${path}/me`)).status).toBe(200);
  });

  it("a replaced refresh token gets the grace once: a third holder, even within it, revokes the session", async () => {
    const { client } = await registerAccount(kind);
    const token = client.jar.get("refresh_token") ?? "";
    expect((await client.post(`${path}/refresh`)).status).toBe(200);
    const second = new Client();
    second.jar.set("refresh_token", token, path);
    expect((await second.post(`${path}/refresh`)).status).toBe(200);
    const third = new Client();
    third.jar.set("refresh_token", token, path);
    await expectProblem(await third.post(`${path}/refresh`), 401, "UNAUTHORIZED");
    await expectProblem(await client.get(`${path}/me`), 401, "UNAUTHORIZED");
    await expectProblem(await second.get(`${path}/me`), 401, "UNAUTHORIZED");
  });

  it("a captured re-authentication cannot be replayed, on its session or without one", async () => {
    const account = await registerAccount(kind);
    const { secret } = await turnOnTwoFactor(kind, account);
    const body = { code: await totpCode(secret, 1), password: account.password };
    const first = await account.client.post(`${path}/2fa/recovery-codes`, body);
    expect(first.status).toBe(200);
    const { recoveryCodes } = (await first.json()) as { recoveryCodes: string[] };
    // The same request again, within the code's life: the code is used up.
    await expectProblem(
      await account.client.post(`${path}/2fa/recovery-codes`, body),
      401,
      "UNAUTHORIZED",
    );
    // Without the session it is refused before anything is checked.
    await expectProblem(
      await new Client().post(`${path}/2fa/recovery-codes`, body),
      401,
      "UNAUTHORIZED",
    );
    await expectProblem(await new Client().post(`${path}/2fa/disable`, body), 401, "UNAUTHORIZED");
    // Nothing changed: the codes of the first answer still sign in, and 2FA is on.
    const login = await new Client().post(`${path}/login`, {
      email: account.email,
      password: account.password,
      code: recoveryCodes[0],
    });
    expect(login.status).toBe(200);
    const me = (await (await account.client.get(`${path}/me`)).json()) as Record<string, unknown>;
    expect(me.twoFactorEnabled).toBe(true);
  });
});

/** A recovery step the owner of `account` may take; answers when it is done. */
type Recovery = (kind: (typeof KINDS)[number], account: Registered) => Promise<void>;

const expectOk = async (response: Response, status = 200) => {
  if (response.status !== status) {
    throw new Error(`answered ${response.status}: ${await response.text()}`);
  }
};

/** What the change notice tells the owner to do, and what else ends a stolen change. */
const RECOVERIES: Array<[string, Recovery]> = [
  [
    "a password change",
    async (kind, account) =>
      expectOk(
        await account.client.post(`${authPath(kind)}/password/change`, {
          currentPassword: account.password,
          newPassword: strongPassword(),
        }),
      ),
  ],
  [
    "signing out everywhere",
    async (kind, account) => expectOk(await account.client.delete(`${authPath(kind)}/sessions`)),
  ],
  [
    "a password reset",
    async (kind, account) => {
      const path = authPath(kind);
      await expectOk(
        await new Client().post(`${path}/password/forgot`, { email: account.email }),
        202,
      );
      let token: string | undefined;
      for (let i = 0; i < 50 && !token; i++) {
        token = await mailedToken(account.email);
        if (!token) await new Promise((r) => setTimeout(r, 50));
      }
      await expectOk(
        await new Client().post(`${path}/password/reset`, { token, password: strongPassword() }),
      );
    },
  ],
  ["turning 2FA on", async (kind, account) => void (await turnOnTwoFactor(kind, account))],
  [
    "turning 2FA off",
    async (kind, account) => {
      const { secret } = await turnOnTwoFactor(kind, account);
      await earlyInAStep();
      await expectOk(
        await account.client.post(`${authPath(kind)}/2fa/disable`, {
          password: account.password,
          code: await totpCode(secret, 1),
        }),
      );
    },
  ],
  [
    "new recovery codes",
    async (kind, account) => {
      const { secret } = await turnOnTwoFactor(kind, account);
      await earlyInAStep();
      await expectOk(
        await account.client.post(`${authPath(kind)}/2fa/recovery-codes`, {
          password: account.password,
          code: await totpCode(secret, 1),
        }),
      );
    },
  ],
];

describe.each(KINDS)("%s email-change takeover", (kind) => {
  const path = authPath(kind);

  it.each(RECOVERIES)(
    "a change link asked by whoever had the password dies with %s, and so do verification links",
    async (_, recover) => {
      const owner = await registerAccount(kind);
      const registrationLink = await mailedVerificationToken(owner.email);
      // The attacker signs in with the stolen password and asks to move the account.
      const attacker = new Client();
      await expectOk(
        await attacker.post(`${path}/login`, { email: owner.email, password: owner.password }),
      );
      const theirs = uniqueEmail();
      await expectOk(
        await attacker.post(`${path}/email/change`, { email: theirs, password: owner.password }),
        202,
      );
      const link = await mailedVerificationToken(theirs);
      // The notice tells the owner that signing out everywhere cancels it.
      const notices = await mailedTo(owner.email);
      expect(notices.at(-1)?.text).toMatch(/sign(ing)? out everywhere[^.]*cancels/i);

      await recover(kind, owner);

      for (const token of [link, registrationLink]) {
        const opened = await new Client().post(`${path}/email/verify`, { token });
        await expectProblem(opened, 400, "VALIDATION_FAILED");
      }
      // The account kept its address: the attacker's address signs nothing in.
      const moved = await new Client().post(`${path}/login`, {
        email: theirs,
        password: owner.password,
      });
      await expectProblem(moved, 401, "UNAUTHORIZED");
    },
  );

  it("a stranger who registered the owner's address first loses the change link they kept once the owner resets the password", async () => {
    // The stranger registers the owner's address (unproven) and asks to move it to their own.
    const stranger = await registerAccount(kind);
    const theirs = uniqueEmail();
    await expectOk(
      await stranger.client.post(`${path}/email/change`, {
        email: theirs,
        password: stranger.password,
      }),
      202,
    );
    const link = await mailedVerificationToken(theirs);
    // The real owner of the address adopts the account through a reset link.
    await RECOVERIES[2]?.[1](kind, stranger);
    await expectProblem(
      await new Client().post(`${path}/email/verify`, { token: link }),
      400,
      "VALIDATION_FAILED",
    );
    const forgot = await new Client().post(`${path}/password/forgot`, { email: theirs });
    expect(forgot.status).toBe(202);
    expect(await mailedToken(theirs)).toBeUndefined();
  });
});

describe.each(KINDS)("%s second-factor lockout", (kind) => {
  const path = authPath(kind);

  /** 40 sign-ins with a wrong password and a made-up code, from one network, one at a time. */
  async function guessCodesWithoutThePassword(email: string) {
    const attacker = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const guess = await new Client(attacker).post(`${path}/login`, {
        email,
        password: `wrong-${i}`,
        code: String(100000 + i),
      });
      statuses.push(guess.status);
    }
    // The network's sign-in limit stops it after 10 failures; none of it touched the codes.
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  }

  it("codes guessed without the password leave the owner's sign-ins alone: a code, a recovery code, a provider's 2fa/complete", async () => {
    const owner = await registerAccount(kind);
    const verification = await mailedVerificationToken(owner.email);
    await expectOk(await new Client().post(`${path}/email/verify`, { token: verification }));
    const { secret, recoveryCodes } = await turnOnTwoFactor(kind, owner);
    await guessCodesWithoutThePassword(owner.email);

    const signIn = (code: string) =>
      new Client().post(`${path}/login`, { email: owner.email, password: owner.password, code });
    expect((await signIn(await totpCode(secret, 1))).status).toBe(200);
    expect((await signIn(recoveryCodes[0] ?? "")).status).toBe(200);
    const throughProvider = await signInWithProvider(kind, new Client(), { email: owner.email });
    const completed = await throughProvider.post(`${path}/2fa/complete`, {
      code: recoveryCodes[1],
    });
    expect(completed.status).toBe(200);
  });

  it("codes guessed without the password leave the owner's re-authentication with a code alone", async () => {
    const owner = await registerAccount(kind);
    const { secret } = await turnOnTwoFactor(kind, owner);
    await guessCodesWithoutThePassword(owner.email);
    const renewed = await owner.client.post(`${path}/2fa/recovery-codes`, {
      password: owner.password,
      code: await totpCode(secret, 1),
    });
    expect(renewed.status).toBe(200);
  });

  it("codes sent in parallel with the right password: at most 5 get a verdict, even a right one past them", async () => {
    const owner = await registerAccount(kind);
    const { secret } = await turnOnTwoFactor(kind, owner);
    const right = await totpCode(secret, 1);
    const tries = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        new Client().post(`${path}/login`, {
          email: owner.email,
          password: owner.password,
          code: String(100000 + i),
        }),
      ),
    );
    const statuses = tries.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(7);
    // The limit is spent: the right code waits too, and says for how long.
    const late = await new Client().post(`${path}/login`, {
      email: owner.email,
      password: owner.password,
      code: right,
    });
    await expectProblem(late, 429, "RATE_LIMITED");
    expect(Number(late.headers.get("retry-after"))).toBeGreaterThan(800);
  });
});

describe.each(KINDS)("%s guessing from one IPv6 site", (kind) => {
  const path = authPath(kind);
  const login = (ip: string, body: Record<string, unknown>) =>
    new Client(ip).post(`${path}/login`, body);
  const group = () => Math.floor(Math.random() * 0x10000).toString(16);

  it("a /48 rotating through its /64s gets the tries of one network, and the owner elsewhere signs in", async () => {
    const { email, password } = await registerAccount(kind);
    // Ten guesses, each from a /64 of another /56 of one /48.
    const site = `2001:db8:${group()}`;
    for (let i = 0; i < 10; i++) {
      const guess = await login(`${site}:${(i << 8).toString(16)}::1`, {
        email,
        password: `x${i}`,
      });
      expect(guess.status).toBe(401);
    }
    // An eleventh /56 of that /48 waits, even with the right password.
    await expectProblem(await login(`${site}:ff00::1`, { email, password }), 429, "RATE_LIMITED");
    expect((await login(`2001:db8:${group()}:1::1`, { email, password })).status).toBe(200);
  });

  it("a /56 rotating through its /64s gets the tries of one network", async () => {
    const { email, password } = await registerAccount(kind);
    const home = `2001:db8:${group()}:4c`;
    for (let i = 0; i < 10; i++) {
      expect(
        (await login(`${home}${i.toString(16).padStart(2, "0")}::1`, { email, password: `x${i}` }))
          .status,
      ).toBe(401);
    }
    await expectProblem(await login(`${home}ff::1`, { email, password }), 429, "RATE_LIMITED");
    expect((await login(uniqueIp(), { email, password })).status).toBe(200);
  });
});
