// The web player's account pages in a real browser (Debian's Chromium through playwright-core)
// against the local stack: signing in as the other kind, a forgotten password reset from the
// mailed link, signing in through a provider (the stand-in Google), 2FA from its QR code and a
// recovery code elsewhere. Nothing is requested from another origin and no page error or CSP
// breach happens on the way.
import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { axeViolations, DESKTOP } from "./support/player-page.ts";
import { webPlayerSuite } from "./support/web-player-suite.ts";

const web = webPlayerSuite("account");

describe("the web player", () => {
  test("an artist who signs in as a Listener (the page's default) gets in as the artist, and the page remembers the kind", async () => {
    const first = await web.open();
    const fresh = await web.open();
    try {
      const username = `kind_${randomBytes(3).toString("hex")}`;
      const password = await web.signUp(first.page, "Artist", username);
      await first.page.waitForURL(`${web.stack.apiUrl}/studio`);

      // Another browser, which remembers nothing: the page offers Listener.
      const page = fresh.page;
      const signIn = async (secret: string) => {
        await page.goto(`${web.stack.apiUrl}/sign-in`);
        await page.getByLabel("Email", { exact: true }).fill(`${username}@example.test`);
        await page.getByLabel("Password", { exact: true }).fill(secret);
        await page.getByRole("button", { name: "Sign in", exact: true }).click();
      };
      await page.goto(`${web.stack.apiUrl}/sign-in`);
      expect(await page.getByLabel("Listener", { exact: true }).isChecked()).toBe(true);
      // A wrong password is refused by both kinds: the usual message, nothing more.
      await signIn("not the password");
      await page
        .getByRole("alert")
        .filter({ hasText: /email or the password is wrong/i })
        .waitFor();
      await signIn(password);
      await page.waitForURL(`${web.stack.apiUrl}/studio`);
      await page.getByRole("link", { name: `Account: ${username}` }).waitFor();
      // Next time the page starts on the kind that worked.
      await page.goto(`${web.stack.apiUrl}/account`);
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.waitForURL(`${web.stack.apiUrl}/`);
      await page.goto(`${web.stack.apiUrl}/sign-in`);
      expect(await page.getByLabel("Artist", { exact: true }).isChecked()).toBe(true);
      expect([...first.problems, ...fresh.problems]).toEqual([]);
    } finally {
      await first.context.close();
      await fresh.context.close();
    }
  });

  test("a listener resets a forgotten password from the mailed link, which leaves no token in the address", async () => {
    const { page, context, problems } = await web.open();
    try {
      const username = `forgot_${randomBytes(3).toString("hex")}`;
      const email = `${username}@example.test`;
      await web.signUp(page, "Listener", username);
      await page.waitForURL(`${web.stack.apiUrl}/`);
      await context.clearCookies();

      await page.goto(`${web.stack.apiUrl}/forgot-password`);
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByRole("button", { name: /reset link/i }).click();
      const mailed = async () => {
        const answer = await fetch(
          `${web.stack.standInsUrl}/mail/messages?to=${encodeURIComponent(email)}`,
        );
        const messages = (await answer.json()) as Array<{ text: string | null }>;
        return messages
          .map((m) => /https?:\/\/\S+reset-password\S+/.exec(m.text ?? "")?.[0])
          .find(Boolean);
      };
      await expect.poll(mailed, { timeout: 15_000 }).toBeTruthy();
      const link = new URL((await mailed()) as string);
      expect(link.searchParams.get("token")).toBeTruthy();

      await page.goto(`${web.stack.apiUrl}${link.pathname}${link.search}`);
      await page.getByRole("heading", { name: "Set a new password" }).waitFor();
      // The token is kept by the page, not in the address (nor the history entry).
      await expect.poll(() => new URL(page.url()).searchParams.has("token")).toBe(false);
      const password = `new-${randomBytes(8).toString("hex")}`;
      await page.getByLabel("New password", { exact: true }).fill(password);
      await page.getByRole("button", { name: "Set new password" }).click();
      await page.getByText("Your new password is set").waitFor();

      await page.getByRole("link", { name: "Sign in" }).last().click();
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByLabel("Password", { exact: true }).fill(password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL(`${web.stack.apiUrl}/`);
      await page.getByRole("link", { name: `Account: ${username}` }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a listener signs in with Google (the stand-in provider) and comes back to the player signed in", async () => {
    // The provider's pages are the one other origin a sign-in through it must reach.
    const { page, context, problems } = await web.open(DESKTOP, {
      allow: [new URL(web.stack.standInsUrl).origin],
    });
    try {
      await page.goto(`${web.stack.apiUrl}/sign-in`);
      await page.getByRole("link", { name: "Continue with Google" }).click();
      await page.waitForURL(`${web.stack.apiUrl}/`);
      await page.getByRole("link", { name: /^Account: / }).waitFor();
      await page.getByRole("link", { name: "Library" }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a listener turns on 2FA from its QR code, signs in elsewhere with a recovery code, and signs that session out", async () => {
    const first = await web.open();
    const second = await web.open();
    try {
      const { page } = first;
      const username = `twofa_${randomBytes(3).toString("hex")}`;
      const password = await web.signUp(page, "Listener", username);
      await page.waitForURL(`${web.stack.apiUrl}/`);
      await page.getByRole("link", { name: `Account: ${username}` }).click();

      const setUp = page.getByRole("form", { name: "Set up two-factor authentication" });
      await setUp.getByLabel("Current password").fill(password);
      await setUp.getByRole("button", { name: "Set up two-factor authentication" }).click();
      const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
      await qr.waitFor();
      // A real PNG that the browser decoded.
      expect(await qr.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(
        100,
      );
      const secret = (await page.locator("code.break").textContent()) ?? "";
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      const turnOn = page.getByRole("form", { name: "Turn on two-factor authentication" });
      await turnOn.getByLabel("Authentication code").fill(await web.totpCode(secret));
      await turnOn.getByRole("button", { name: "Turn on" }).click();
      await page.getByRole("heading", { name: "Your recovery codes" }).waitFor();
      const codes = await page.locator("ol code").allTextContents();
      expect(codes).toHaveLength(10);
      await page.getByRole("button", { name: "I have saved them" }).click();

      // Elsewhere: the password, then the second factor (a recovery code).
      const other = second.page;
      await other.goto(`${web.stack.apiUrl}/sign-in`);
      await other.getByLabel("Listener", { exact: true }).check();
      await other.getByLabel("Email", { exact: true }).fill(`${username}@example.test`);
      await other.getByLabel("Password", { exact: true }).fill(password);
      await other.getByRole("button", { name: "Sign in" }).click();
      await other.getByLabel("Authentication code").fill(codes[0] ?? "");
      await other.getByRole("button", { name: "Verify" }).click();
      await other.getByRole("link", { name: `Account: ${username}` }).waitFor();

      // Back on the first: two sessions; signing the other out leaves one.
      await page.reload();
      const sessions = page.getByRole("table", { name: "Sessions" });
      await expect.poll(() => sessions.getByRole("row").count()).toBe(3); // the header and two
      await page.getByRole("button", { name: "Sign out everywhere else" }).click();
      await expect.poll(() => sessions.getByRole("row").count()).toBe(2);
      // The button keeps the keyboard focus (it is not disabled under it).
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe(
        "Sign out everywhere else",
      );
      await other.reload();
      await other.getByRole("link", { name: "Sign in" }).waitFor();
      expect([...first.problems, ...second.problems]).toEqual([]);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });
  test("a listener makes an app password for a Subsonic app, which signs in with it until it is ended", async () => {
    const { page, context, problems } = await web.open(DESKTOP, { bypassCSP: true });
    try {
      const username = `app_${randomBytes(3).toString("hex")}`;
      await web.signUp(page, "Listener", username);
      await page.getByRole("link", { name: `Account: ${username}` }).click();
      const apps = page.getByRole("region", { name: "Apps" });
      await apps.getByLabel("App name").fill("Phone (Symfonium)");
      await apps.getByRole("button", { name: "Make an app password" }).click();
      const shown = apps.getByRole("status").filter({ hasText: "shown this once" });
      await shown.waitFor();
      const secret = (await shown.locator("code.break").textContent()) ?? "";
      expect(secret.length).toBeGreaterThan(20);
      await apps
        .getByRole("list", { name: "App passwords" })
        .getByText("Phone (Symfonium)")
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // As an app signs in: the Subsonic door, with the username and the app password.
      const ping = async () => {
        const url = new URL("/rest/ping.view", web.stack.apiUrl);
        for (const [k, v] of Object.entries({
          u: username,
          p: secret,
          v: "1.16.1",
          c: "e2e",
          f: "json",
        })) {
          url.searchParams.set(k, v);
        }
        const body = (await (await fetch(url)).json()) as {
          "subsonic-response": { status: string; error?: { code: number } };
        };
        return body["subsonic-response"];
      };
      expect((await ping()).status).toBe("ok");

      await apps.getByRole("button", { name: "End Phone (Symfonium)" }).click();
      await expect
        .poll(async () => apps.getByRole("list", { name: "App passwords" }).count())
        .toBe(0);
      expect(await ping()).toMatchObject({ status: "failed", error: { code: 40 } });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
