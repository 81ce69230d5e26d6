import { describe, expect, it } from "vitest";
import {
  authPath,
  Client,
  KINDS,
  mailedTo,
  registerAccount,
  signInWithProvider,
  strongPassword,
} from "../../support/auth.ts";
import { expectProblem } from "../../support/problem.ts";

/** Mail is sent after the response: wait for it a little. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  return await read();
}

describe.each(KINDS)("%s password change", (kind) => {
  const path = authPath(kind);

  it("needs the current password, ends every other session, keeps the caller's and mails a notice", async () => {
    const account = await registerAccount(kind);
    const other = new Client();
    await other.post(`${path}/login`, { email: account.email, password: account.password });
    const newPassword = strongPassword();
    const changed = await account.client.post(`${path}/password/change`, {
      currentPassword: account.password,
      newPassword,
    });
    expect(changed.status).toBe(200);
    await expectProblem(await other.get(`${path}/me`), 401, "UNAUTHORIZED");
    expect((await account.client.get(`${path}/me`)).status).toBe(200);
    const login = (password: string) =>
      new Client().post(`${path}/login`, { email: account.email, password });
    await expectProblem(await login(account.password), 401, "UNAUTHORIZED");
    expect((await login(newPassword)).status).toBe(200);
    const mails = await eventually(
      () => mailedTo(account.email),
      (list) => list.some((m) => m.subject.includes("password was changed")),
    );
    expect(mails.map((m) => m.subject)).toContain("Your Edge Music password was changed");
  });

  it("refuses a wrong current password (400 wrong_password), counting it as a failed sign-in", async () => {
    const account = await registerAccount(kind);
    const attempt = (currentPassword: string) =>
      account.client.post(`${path}/password/change`, {
        currentPassword,
        newPassword: strongPassword(),
      });
    for (let i = 0; i < 10; i++) {
      const wrong = await expectProblem(await attempt(`wrong-${i}`), 400, "VALIDATION_FAILED");
      expect((wrong as { errors: Array<{ code: string }> }).errors[0]?.code).toBe("wrong_password");
    }
    // This network's sign-in tries against the account are used up: by changes and logins alike.
    await expectProblem(await attempt(account.password), 429, "RATE_LIMITED");
    const login = (ip?: string) =>
      new Client(ip).post(`${path}/login`, { email: account.email, password: account.password });
    await expectProblem(await login(account.client.ip), 429, "RATE_LIMITED");
    // Another network is not stopped.
    expect((await login()).status).toBe(200);
    // Nothing changed meanwhile, and the caller's session is intact.
    expect((await account.client.get(`${path}/me`)).status).toBe(200);
  });

  it("applies the registration rules to the new password and refuses the same one", async () => {
    const account = await registerAccount(kind);
    const change = (newPassword: string) =>
      account.client.post(`${path}/password/change`, {
        currentPassword: account.password,
        newPassword,
      });
    for (const weak of ["short", "password", "x".repeat(129)]) {
      await expectProblem(await change(weak), 400, "VALIDATION_FAILED");
    }
    const same = await expectProblem(await change(account.password), 400, "VALIDATION_FAILED");
    expect((same as { errors: Array<{ code: string }> }).errors[0]?.code).toBe("same_password");
    await expectProblem(
      await account.client.post(`${path}/password/change`, { newPassword: strongPassword() }),
      400,
      "VALIDATION_FAILED",
    );
  });

  it("answers 409 for an account that signs in only through an identity provider", async () => {
    const client = await signInWithProvider(kind);
    await expectProblem(
      await client.post(`${path}/password/change`, {
        currentPassword: "anything",
        newPassword: strongPassword(),
      }),
      409,
      "CONFLICT",
    );
  });

  it("needs a signed-in caller", async () => {
    await expectProblem(
      await new Client().post(`${path}/password/change`, {
        currentPassword: "x",
        newPassword: strongPassword(),
      }),
      401,
      "UNAUTHORIZED",
    );
  });
});
