import { artistAppPasswords, userAppPasswords } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authPath, Client, KINDS, registerAccount } from "../support/auth.ts";
import { withDb } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";

interface AppPassword {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}
interface NewAppPassword extends AppPassword {
  password: string;
  username: string;
}

const TABLES = { user: userAppPasswords, artist: artistAppPasswords } as const;

describe.each(KINDS)("%s app passwords", (kind) => {
  const base = `/api/v1/${kind}s/me/app-passwords`;

  async function make(account: Awaited<ReturnType<typeof registerAccount>>, name = "Phone") {
    const made = await account.client.post(base, { name });
    expect(made.status).toBe(201);
    return (await made.json()) as NewAppPassword;
  }

  async function listed(account: Awaited<ReturnType<typeof registerAccount>>) {
    const answer = await account.client.get(base);
    expect(answer.status).toBe(200);
    return (await answer.json()) as AppPassword[];
  }

  it("shows the secret once, lists names only, and ends one at once", async () => {
    const account = await registerAccount(kind);
    const first = await make(account, "  Phone  ");
    expect(first).toMatchObject({ name: "Phone", username: account.username, lastUsedAt: null });
    expect(first.password).toMatch(/^[a-z2-7]{32}$/);
    const second = await make(account, "Desktop");
    expect(second.password).not.toBe(first.password);

    const list = await listed(account);
    expect(list.map((item) => item.name)).toEqual(["Desktop", "Phone"]);
    expect(JSON.stringify(list)).not.toContain(first.password);
    expect(Object.keys(list[0] ?? {}).sort()).toEqual(["createdAt", "id", "lastUsedAt", "name"]);

    expect((await account.client.delete(`${base}/${first.id}`)).status).toBe(204);
    expect((await listed(account)).map((item) => item.id)).toEqual([second.id]);
    await expectProblem(await account.client.delete(`${base}/${first.id}`), 404, "NOT_FOUND");
  });

  it("stores the secret sealed and found by a keyed hash, never in the clear", async () => {
    const account = await registerAccount(kind);
    const made = await make(account);
    const table = TABLES[kind];
    const [row] = await withDb((db) => db.select().from(table).where(eq(table.id, made.id)));
    expect(row?.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.secretCiphertext.split(".")).toHaveLength(3);
    expect(JSON.stringify(row)).not.toContain(made.password);
  });

  it("is nobody else's: another account neither lists nor ends it", async () => {
    const owner = await registerAccount(kind);
    const other = await registerAccount(kind);
    const made = await make(owner);
    expect(await listed(other)).toEqual([]);
    await expectProblem(await other.client.delete(`${base}/${made.id}`), 404, "NOT_FOUND");
    expect((await listed(owner)).map((item) => item.id)).toEqual([made.id]);
  });

  it("refuses an empty name and a 21st app password", async () => {
    const account = await registerAccount(kind);
    await expectProblem(await account.client.post(base, { name: "   " }), 400, "VALIDATION_FAILED");
    for (let i = 0; i < 20; i++) await make(account, `App ${i}`);
    await expectProblem(await account.client.post(base, { name: "One more" }), 409, "CONFLICT");
  });

  it("ends every app password on a password change", async () => {
    const account = await registerAccount(kind);
    await make(account);
    const changed = await account.client.post(`${authPath(kind)}/password/change`, {
      currentPassword: account.password,
      newPassword: `${account.password}-new`,
    });
    expect(changed.status).toBe(200);
    expect(await listed(account)).toEqual([]);
  });

  it("ends every app password on sign out everywhere", async () => {
    const account = await registerAccount(kind);
    await make(account);
    expect((await account.client.delete(`${authPath(kind)}/sessions`)).status).toBe(200);
    expect(await listed(account)).toEqual([]);
  });

  it("is not a credential of the REST API", async () => {
    const account = await registerAccount(kind);
    const made = await make(account);
    const basic = btoa(`${account.username}:${made.password}`);
    const fresh = new Client();
    for (const authorization of [`Bearer ${made.password}`, `Basic ${basic}`]) {
      await expectProblem(await fresh.get(base, { authorization }), 401, "UNAUTHORIZED");
    }
  });
});
