import { inject } from "vitest";
import { createApp } from "../../src/app.ts";
import type { Bindings } from "../../src/env.ts";
import type { PrincipalKind } from "../../src/security/account-kinds.ts";
import { send, testBindings } from "./env.ts";

export const app = createApp();
export const KINDS = ["user", "artist"] as const satisfies readonly PrincipalKind[];
export const authPath = (kind: PrincipalKind) => `/api/v1/${kind}s/auth`;

/** A password no list holds: unique per call. */
export const strongPassword = () => `pw-${crypto.randomUUID()}`;
/** Unique names, so suites never collide in the shared database. */
export const uniqueName = (prefix = "u") => `${prefix}${crypto.randomUUID().slice(0, 12)}`;
export const uniqueEmail = () => `${uniqueName("e")}@example.com`;
/**
 * A client address of its own, so per-address limits of one test never touch another: addresses
 * of 10.0.0.0/8 counted up from a random start. Drawn at random (24 bits), two of 3,000 clients
 * share an address in one run of four, and a shared address shares its rate limits. A test
 * process now never repeats one; processes start at random places, and the few thousand
 * addresses of three processes overlap in under one run in a thousand.
 */
let nextIp = Math.floor(Math.random() * 2 ** 24);
export const uniqueIp = () => {
  const n = nextIp++ % 2 ** 24;
  return `10.${n >>> 16}.${(n >>> 8) & 255}.${n & 255}`;
};

interface StoredCookie {
  value: string;
  path: string;
}

/** A minimal browser cookie store: keeps Set-Cookie values and sends them by path. */
export class CookieJar {
  private readonly cookies = new Map<string, StoredCookie>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) ?? "/";
      const maxAge = attributes.find((a) => /^max-age=/i.test(a))?.slice(8);
      const key = `${name};${path}`;
      if (value === "" || maxAge === "0") this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }

  get(name: string): string | undefined {
    for (const [key, cookie] of this.cookies) if (key.startsWith(`${name};`)) return cookie.value;
    return undefined;
  }

  set(name: string, value: string, path = "/"): void {
    this.cookies.set(`${name};${path}`, { value, path });
  }

  header(requestPath: string): string {
    return [...this.cookies]
      .filter(
        ([, c]) =>
          requestPath === c.path || requestPath.startsWith(`${c.path.replace(/\/$/, "")}/`),
      )
      .map(([key, c]) => `${key.split(";")[0]}=${c.value}`)
      .join("; ");
  }
}

/** One client: a cookie jar and an address of its own, sending through the app in workerd. */
export class Client {
  readonly jar = new CookieJar();
  /** `bindings`: changes to the test bindings for every request of this client. */
  constructor(
    readonly ip = uniqueIp(),
    readonly bindings: Partial<Bindings> = {},
  ) {}

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const cookie = this.jar.header(new URL(path, "http://localhost").pathname);
    const response = await send(
      app,
      path,
      {
        method,
        redirect: "manual",
        headers: {
          "cf-connecting-ip": this.ip,
          ...(cookie ? { cookie } : {}),
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      },
      testBindings(this.bindings),
    );
    this.jar.take(response);
    return response;
  }

  /** A multipart/form-data request (fetch sets the boundary). */
  async form(method: string, path: string, form: FormData): Promise<Response> {
    const cookie = this.jar.header(new URL(path, "http://localhost").pathname);
    const response = await send(
      app,
      path,
      {
        method,
        body: form,
        headers: { "cf-connecting-ip": this.ip, ...(cookie ? { cookie } : {}) },
      },
      testBindings(this.bindings),
    );
    this.jar.take(response);
    return response;
  }

  get = (path: string, headers?: Record<string, string>) =>
    this.request("GET", path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.request("POST", path, body, headers);
  put = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.request("PUT", path, body, headers);
  patch = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.request("PATCH", path, body, headers);
  delete = (path: string, headers?: Record<string, string>) =>
    this.request("DELETE", path, undefined, headers);
}

export interface Registered {
  client: Client;
  id: string;
  username: string;
  email: string;
  password: string;
}

/** Registers a fresh account of `kind` and returns its signed-in client. */
export async function registerAccount(
  kind: PrincipalKind,
  client = new Client(),
): Promise<Registered> {
  const input = { username: uniqueName(), email: uniqueEmail(), password: strongPassword() };
  const response = await client.post(`${authPath(kind)}/register`, input);
  if (response.status !== 201) {
    throw new Error(`register answered ${response.status}: ${await response.text()}`);
  }
  const { id } = (await response.json()) as { id: string };
  return { client, id, ...input };
}

/** POSTs JSON to a stand-in (OAuth provider, mail API, oracle) and returns its JSON answer. */
export async function standIn<T>(url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method: body === undefined ? "GET" : "POST",
    ...(body !== undefined
      ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } }
      : {}),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A TOTP code from an independent implementation (otplib in Node), not the Worker's own. */
export async function totpCode(secret: string, offsetSteps = 0): Promise<string> {
  const url = `${inject("infra").standIns.url}/oracle/totp`;
  const timeMs = Date.now() + offsetSteps * 30_000;
  return (await standIn<{ code: string }>(url, { secret, timeMs })).code;
}

/**
 * Codes are made here and checked in the Worker a moment later: start early in a 30-second
 * step, so that no step boundary falls between the two during a test.
 */
export async function earlyInAStep(): Promise<void> {
  const into = Date.now() % 30_000;
  if (into > 20_000) await new Promise((r) => setTimeout(r, 30_000 - into + 100));
}

/** The messages the mail stand-in received for `email`, oldest first. */
export async function mailedTo(email: string): Promise<Array<{ subject: string; text: string }>> {
  const url = `${inject("infra").standIns.url}/mail/messages?to=${encodeURIComponent(email)}`;
  return await standIn<Array<{ subject: string; text: string }>>(url);
}

/** The reset token of the newest message the mail stand-in received for `email`. */
export async function mailedToken(email: string): Promise<string | undefined> {
  const messages = await mailedTo(email);
  return /Reset token: (\S+)/.exec(messages.at(-1)?.text ?? "")?.[1];
}

/**
 * A sign-in through an identity provider (a new identity with a fresh address unless given): the
 * consent at the OAuth stand-in, then the callback. Answers the signed-in client.
 */
export async function signInWithProvider(
  kind: PrincipalKind,
  client = new Client(),
  identity: { sub?: string; email?: string } = {},
) {
  const start = await client.get(`${authPath(kind)}/oauth/google`);
  const authorize = new URL(start.headers.get("location") ?? "");
  authorize.searchParams.set("sub", identity.sub ?? crypto.randomUUID());
  authorize.searchParams.set("email", identity.email ?? uniqueEmail());
  const consent = await fetch(authorize, { redirect: "manual" });
  const callback = new URL(consent.headers.get("location") ?? "");
  await client.get(`${callback.pathname}${callback.search}`);
  return client;
}

/** The newest verification token mailed to `email` (mail goes out after the response). */
export async function mailedVerificationToken(email: string, after = 0): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const tokens = (await mailedTo(email))
      .map((m) => /Verification token: (\S+)/.exec(m.text)?.[1])
      .filter((t): t is string => Boolean(t));
    if (tokens.length > after) return tokens.at(-1) ?? "";
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no verification mail for ${email}`);
}

/** Turns 2FA on for a registered account (set-up, then a first code); its secret and codes. */
export async function turnOnTwoFactor(kind: PrincipalKind, account: Registered) {
  await earlyInAStep();
  const setup = await account.client.post(`${authPath(kind)}/2fa/enable`, {
    password: account.password,
  });
  const { secret } = (await setup.json()) as { secret: string };
  const verified = await account.client.post(`${authPath(kind)}/2fa/verify`, {
    code: await totpCode(secret),
  });
  if (verified.status !== 200) throw new Error(`2fa/verify answered ${verified.status}`);
  const { recoveryCodes } = (await verified.json()) as { recoveryCodes: string[] };
  return { secret, recoveryCodes };
}
