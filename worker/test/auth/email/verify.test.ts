import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ACCOUNT_KINDS } from "../../../src/security/account-kinds.ts";
import {
  authPath,
  Client,
  KINDS,
  mailedVerificationToken,
  type Registered,
  registerAccount,
  signInWithProvider,
} from "../../support/auth.ts";
import { withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";

const verificationTokenFor = mailedVerificationToken;

describe.each(KINDS)("%s email verification", (kind) => {
  const path = authPath(kind);
  const me = async (account: Registered) =>
    (await (await account.client.get(`${path}/me`)).json()) as { emailVerified: boolean };
  const verify = (token: string) => new Client().post(`${path}/email/verify`, { token });

  it("starts unverified, mails a link at registration, and verifies once with it (on any device)", async () => {
    const account = await registerAccount(kind);
    expect((await me(account)).emailVerified).toBe(false);
    const token = await verificationTokenFor(account.email);
    const done = await verify(token);
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ email: account.email, emailVerified: true });
    expect((await me(account)).emailVerified).toBe(true);
    const again = await expectProblem(await verify(token), 400, "VALIDATION_FAILED");
    expect((again.errors as Array<{ code: string }>)[0]?.code).toBe("invalid_token");
    await expectProblem(await verify("x".repeat(40)), 400, "VALIDATION_FAILED");
    await expectProblem(await verify("short"), 400, "VALIDATION_FAILED");
  });

  it("refuses a link after its 24 hours", async () => {
    const account = await registerAccount(kind);
    const token = await verificationTokenFor(account.email);
    const { emailTokens } = ACCOUNT_KINDS[kind].auth;
    await withDb((db) =>
      db
        .update(emailTokens)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(sql`${emailTokens.principalId} = ${account.id}`),
    );
    await expectProblem(await verify(token), 400, "VALIDATION_FAILED");
    expect((await me(account)).emailVerified).toBe(false);
  });

  it("mails a new link on request, at most 3 an hour, and not once verified", async () => {
    const account = await registerAccount(kind);
    await verificationTokenFor(account.email);
    const resend = () => account.client.post(`${path}/email/verify/resend`);
    expect((await resend()).status).toBe(202);
    const second = await verificationTokenFor(account.email, 1);
    expect((await resend()).status).toBe(202);
    expect((await resend()).status).toBe(202);
    await expectProblem(await resend(), 429, "RATE_LIMITED");
    expect((await verify(second)).status).toBe(200);
    const verified = await registerAccount(kind);
    expect((await verify(await verificationTokenFor(verified.email))).status).toBe(200);
    await expectProblem(await verified.client.post(`${path}/email/verify/resend`), 409, "CONFLICT");
    await expectProblem(
      await new Client().post(`${path}/email/verify/resend`),
      401,
      "UNAUTHORIZED",
    );
  });

  it("counts an address a provider vouched for as verified", async () => {
    const client = await signInWithProvider(kind);
    const account = (await (await client.get(`${path}/me`)).json()) as { emailVerified: boolean };
    expect(account.emailVerified).toBe(true);
  });
});
