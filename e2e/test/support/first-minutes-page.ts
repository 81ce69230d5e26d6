// What the first-minutes browser tests share: a watched page of the stack, a sign-up through the
// page, the stand-in mail inbox, the TOTP oracle and axe's WCAG 2.1 A/AA findings.
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";

export const PHONE = { width: 375, height: 812 };
export const DESKTOP = { width: 1280, height: 800 };

export interface Watched {
  page: Page;
  context: BrowserContext;
  /** Requests to another origin, CSP breaches, uncaught errors. */
  problems: string[];
}

/**
 * A new browser context on the stack. `bypassCSP` only where axe is injected (the page's CSP
 * would refuse its script).
 */
export async function openPage(
  browser: Browser,
  apiUrl: string,
  options: { viewport?: { width: number; height: number }; bypassCSP?: boolean } = {},
): Promise<Watched> {
  const origin = new URL(apiUrl).origin;
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    deviceScaleFactor: 1,
    acceptDownloads: true,
    ...(options.bypassCSP ? { bypassCSP: true } : {}),
  });
  const page = await context.newPage();
  const problems: string[] = [];
  await context.route(
    (url) => url.origin !== origin && !["data:", "blob:"].includes(url.protocol),
    (route) => {
      problems.push(`request to another origin: ${route.request().url()}`);
      return route.abort();
    },
  );
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return { page, context, problems };
}

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

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** axe's WCAG 2.1 A/AA violations on the page as it is now ("rule at selector, …"). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return await page.evaluate(async () => {
    type Result = { violations: { id: string; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run(...args: unknown[]): Promise<Result> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return result.violations.map(
      (v) => `${v.id} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    );
  });
}
