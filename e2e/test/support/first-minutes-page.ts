// What the first-minutes browser tests share beyond player-page.ts (a watched page, axe): a
// sign-up through the page as either kind, the stand-in mail inbox and the TOTP oracle.
import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";

export interface SignedUp {
  username: string;
  email: string;
  password: string;
}

/** Signs up through the page as `kind`, and waits for the page it goes on to. */
export async function signUpThroughPage(
  page: Page,
  apiUrl: string,
  kind: "Listener" | "Artist",
  prefix: string,
): Promise<SignedUp> {
  const username = `${prefix}_${randomBytes(3).toString("hex")}`;
  const email = `${username}@example.test`;
  const password = `pw-${randomBytes(8).toString("hex")}`;
  await page.goto(`${apiUrl}/sign-up`);
  await page.getByLabel(kind, { exact: true }).check();
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(kind === "Listener" ? `${apiUrl}/` : `${apiUrl}/studio`);
  await page.getByRole("link", { name: `Account: ${username}` }).waitFor();
  return { username, email, password };
}

/** The texts of the mails the stand-in received for `to`. */
export async function mailsTo(standInsUrl: string, to: string): Promise<string[]> {
  const answer = await fetch(`${standInsUrl}/mail/messages?to=${encodeURIComponent(to)}`);
  const messages = (await answer.json()) as Array<{ text: string | null }>;
  return messages.map((m) => m.text ?? "");
}

/** A TOTP code from the stand-ins' oracle, early enough in its 30-s step to still be current. */
export async function totpCode(standInsUrl: string, secret: string): Promise<string> {
  const into = Date.now() % 30_000;
  if (into > 20_000) await new Promise((r) => setTimeout(r, 30_000 - into + 100));
  const answer = await fetch(`${standInsUrl}/oracle/totp`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ secret, timeMs: Date.now() }),
  });
  return ((await answer.json()) as { code: string }).code;
}
