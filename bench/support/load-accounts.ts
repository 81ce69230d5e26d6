// Many signed-in accounts for a load run, registered through the API as real clients would be,
// each from its own client address: registration hashes a password and is limited per address
// (30 an hour), so one address for all of them would measure the limiter, not the service.
// Each account keeps its session as a client does: the access cookie (5 minutes) and the
// refresh cookie, refreshed once the access token is 4 minutes old.
import { randomUUID } from "node:crypto";

export type AccountKind = "users" | "artists";

export interface Session {
  kind: AccountKind;
  id: string;
  /** `cf-connecting-ip` of every request of this account: the address the limits count. */
  ip: string;
  access: string;
  refresh: string;
  /** performance.now() of the last sign-in or refresh. */
  issuedAt: number;
}

const REFRESH_AFTER_MS = 4 * 60_000;

/** A private address per account number (10.<net>.x.y). */
export const addressOf = (net: number, n: number) => `10.${net}.${(n >> 8) & 255}.${n & 255}`;

function cookiesOf(answer: Response): { access: string; refresh: string } {
  const cookies = answer.headers.getSetCookie().map((c) => c.split(";")[0] ?? "");
  const access = cookies.find((c) => c.startsWith("access_token="));
  const refresh = cookies.find((c) => c.startsWith("refresh_token="));
  if (!access || !refresh) throw new Error("the answer set no session cookies");
  return { access, refresh };
}

/** Registers one account (201) and keeps the session the answer opened. */
export async function registerAccount(
  baseUrl: string,
  kind: AccountKind,
  label: string,
  ip: string,
): Promise<Session> {
  const suffix = randomUUID().slice(0, 8);
  const answer = await fetch(`${baseUrl}/api/v1/${kind}/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": ip },
    body: JSON.stringify({
      username: `${label}_${suffix}`,
      email: `${label}-${suffix}@bench.test`,
      password: `pw-${randomUUID()}`,
    }),
  });
  if (answer.status !== 201) throw new Error(`register: ${answer.status} ${await answer.text()}`);
  const { id } = (await answer.json()) as { id: string };
  return { kind, id, ip, ...cookiesOf(answer), issuedAt: performance.now() };
}

/** `count` users, `parallel` registrations at a time (each hashes a password in the Worker). */
export async function registerUsers(
  baseUrl: string,
  count: number,
  { label = "load", net = 77, parallel = 4 } = {},
): Promise<Session[]> {
  const sessions: Session[] = [];
  let next = 0;
  const worker = async () => {
    for (let n = next++; n < count; n = next++) {
      sessions[n] = await registerAccount(baseUrl, "users", `${label}${n}`, addressOf(net, n + 1));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return sessions;
}

/**
 * Refreshes the session (POST …/auth/refresh: both tokens rotate); returns the answer's status
 * and time. Not for concurrent use of one session: a refresh token works once.
 */
export async function renewSession(
  baseUrl: string,
  session: Session,
): Promise<{ status: number; ms: number; requestId: string }> {
  const requestId = `refresh-${randomUUID()}`;
  const sent = performance.now();
  const answer = await fetch(`${baseUrl}/api/v1/${session.kind}/auth/refresh`, {
    method: "POST",
    headers: { cookie: session.refresh, "cf-connecting-ip": session.ip, "x-request-id": requestId },
  });
  await answer.arrayBuffer();
  if (answer.status === 200) {
    Object.assign(session, cookiesOf(answer), { issuedAt: performance.now() });
  }
  return { status: answer.status, ms: performance.now() - sent, requestId };
}

/**
 * The `Cookie` header of the session, refreshed first when its access token is near its end;
 * `refreshed` sees the refresh's answer.
 */
export async function sessionCookie(
  baseUrl: string,
  session: Session,
  refreshed?: (answer: { status: number; ms: number; requestId: string }) => void,
): Promise<string> {
  if (performance.now() - session.issuedAt >= REFRESH_AFTER_MS) {
    refreshed?.(await renewSession(baseUrl, session));
  }
  return session.access;
}

/** Fresh tokens for every session, `parallel` at a time; throws if one cannot be refreshed. */
export async function renewSessions(baseUrl: string, sessions: Session[], parallel = 4) {
  let next = 0;
  const worker = async () => {
    for (let session = sessions[next++]; session; session = sessions[next++]) {
      const { status } = await renewSession(baseUrl, session);
      if (status !== 200) throw new Error(`refresh of ${session.kind} ${session.id}: ${status}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}
