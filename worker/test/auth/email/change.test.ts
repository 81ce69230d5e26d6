import { describe, expect, it } from "vitest";
import {
  authPath,
  Client,
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
  uniqueName,
} from "../../support/auth.ts";
import { expectProblem } from "../../support/problem.ts";

/** The mail subjects an address received, oldest first. */
const subjectsTo = async (email: string) => (await mailedTo(email)).map((m) => m.subject);

/** Waits until `email` has received `n` messages (mail goes out after the response). */
async function mailCount(email: string, n: number) {
  for (let i = 0; i < 50; i++) {
    if ((await mailedTo(email)).length >= n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`fewer than ${n} messages for ${email}`);
}

const errorCode = (body: Record<string, unknown>) =>
  (body.errors as Array<{ code: string }> | undefined)?.[0]?.code;

describe.each(KINDS)("%s email change", (kind) => {
  const path = authPath(kind);
  const change = (account: Registered, body: Record<string, unknown>) =>
    account.client.post(`${path}/email/change`, body);
  const verify = (token: string) => new Client().post(`${path}/email/verify`, { token });
  const login = (email: string, password: string) =>
    new Client().post(`${path}/login`, { email, password });

  it("moves the account only when the link mailed to the new address comes back, with notices to the old one", async () => {
    const account = await registerAccount(kind);
    const registrationLink = await mailedVerificationToken(account.email);
    const next = uniqueEmail();

    const asked = await change(account, { email: next, password: account.password });
    expect(asked.status).toBe(202);
    const token = await mailedVerificationToken(next);
    await mailCount(account.email, 2);
    expect((await subjectsTo(account.email)).at(-1)).toMatch(/change of your .* email address/i);
    // Nothing has moved yet: the old address still signs in, the new one does not.
    expect((await login(account.email, account.password)).status).toBe(200);
    await expectProblem(await login(next, account.password), 401, "UNAUTHORIZED");

    const done = await verify(token);
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ email: next, emailVerified: true });
    expect((await login(next, account.password)).status).toBe(200);
    await expectProblem(await login(account.email, account.password), 401, "UNAUTHORIZED");
    await mailCount(account.email, 3);
    expect((await subjectsTo(account.email)).at(-1)).toMatch(/was changed/i);
    if (kind === "user") {
      const me = (await (await account.client.get(`${path}/me`)).json()) as Record<string, unknown>;
      expect(me).toMatchObject({ email: next, emailVerified: true });
    }
    // The link is single-use, and the link that went to the old address no longer verifies.
    await expectProblem(await verify(token), 400, "VALIDATION_FAILED");
    await expectProblem(await verify(registrationLink), 400, "VALIDATION_FAILED");
    // The caller's session stays.
    expect((await account.client.get(`${path}/me`)).status).toBe(200);
  });

  it("ends the links that went to the old address: a pending reset and another pending change", async () => {
    const account = await registerAccount(kind);
    const forgot = await new Client().post(`${path}/password/forgot`, { email: account.email });
    expect(forgot.status).toBe(202);
    let resetToken: string | undefined;
    for (let i = 0; i < 50 && !resetToken; i++) {
      resetToken = await mailedToken(account.email);
      if (!resetToken) await new Promise((r) => setTimeout(r, 50));
    }
    const first = uniqueEmail();
    const second = uniqueEmail();
    expect((await change(account, { email: first, password: account.password })).status).toBe(202);
    expect((await change(account, { email: second, password: account.password })).status).toBe(202);
    const firstLink = await mailedVerificationToken(first);
    expect((await verify(await mailedVerificationToken(second))).status).toBe(200);
    // The other change's link would move the account away from the address just proven.
    await expectProblem(await verify(firstLink), 400, "VALIDATION_FAILED");
    const reset = await new Client().post(`${path}/password/reset`, {
      token: resetToken,
      password: "a brand new passphrase",
    });
    await expectProblem(reset, 400, "VALIDATION_FAILED");
  });

  it("needs the current password, refuses the same or a taken address, and is limited to 5 an hour", async () => {
    const account = await registerAccount(kind);
    const other = await registerAccount(kind);
    const required = await expectProblem(
      await change(account, { email: uniqueEmail() }),
      400,
      "VALIDATION_FAILED",
    );
    expect(errorCode(required)).toBe("required");
    const wrong = await expectProblem(
      await change(account, { email: uniqueEmail(), password: "not the password" }),
      400,
      "VALIDATION_FAILED",
    );
    expect(errorCode(wrong)).toBe("wrong_password");
    const same = await expectProblem(
      await change(account, { email: account.email.toUpperCase(), password: account.password }),
      400,
      "VALIDATION_FAILED",
    );
    expect(errorCode(same)).toBe("same_email");
    await expectProblem(
      await change(account, { email: other.email, password: account.password }),
      409,
      "CONFLICT",
    );
    await expectProblem(
      await change(account, { email: "not an address", password: account.password }),
      400,
      "VALIDATION_FAILED",
    );
    await expectProblem(
      await new Client().post(`${path}/email/change`, { email: uniqueEmail(), password: "x" }),
      401,
      "UNAUTHORIZED",
    );
    // Four requests above reached the limit (the malformed one and the anonymous one did not):
    // one more is allowed, then 429.
    expect(
      (await change(account, { email: uniqueEmail(), password: account.password })).status,
    ).toBe(202);
    await expectProblem(
      await change(account, { email: uniqueEmail(), password: account.password }),
      429,
      "RATE_LIMITED",
    );
  });

  it("answers 409 when another account takes the new address before the link comes back", async () => {
    const account = await registerAccount(kind);
    const next = uniqueEmail();
    expect((await change(account, { email: next, password: account.password })).status).toBe(202);
    const token = await mailedVerificationToken(next);
    const taker = await new Client().post(`${path}/register`, {
      username: uniqueName(),
      email: next,
      password: strongPassword(),
    });
    expect(taker.status).toBe(201);
    await expectProblem(await verify(token), 409, "CONFLICT");
    expect((await login(account.email, account.password)).status).toBe(200);
  });

  it("asks an account with 2FA on for a current code too (not a recovery code)", async () => {
    const account = await registerAccount(kind);
    const { secret, recoveryCodes } = await turnOnTwoFactor(kind, account);
    const email = uniqueEmail();
    const missing = await expectProblem(
      await change(account, { email, password: account.password }),
      400,
      "VALIDATION_FAILED",
    );
    expect(errorCode(missing)).toBe("required");
    await expectProblem(
      await change(account, { email, password: account.password, code: recoveryCodes[0] }),
      400,
      "VALIDATION_FAILED",
    );
    const asked = await change(account, {
      email,
      password: account.password,
      code: await totpCode(secret, 1),
    });
    expect(asked.status).toBe(202);
  });

  it("lets an account without a password change its address right after signing in", async () => {
    const client = await signInWithProvider(kind);
    const next = uniqueEmail();
    const asked = await client.post(`${path}/email/change`, { email: next });
    expect(asked.status).toBe(202);
    const done = await verify(await mailedVerificationToken(next));
    expect(done.status).toBe(200);
  });
});
