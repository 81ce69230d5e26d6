import { timingSafeEqual } from "../../security/crypto.ts";
import type { Claim } from "./claim.ts";
import type { Caller } from "./credentials.ts";

/**
 * The credentials this isolate has checked, so that the next call with one needs no secret read
 * first (ADR 0029): a write then goes in the call's one batch, behind a statement that confirms
 * the app password still exists for this account (and username). The memory never decides alone:
 * a revoked app password, a changed username or a deleted account fails that statement, and the
 * call is checked again from the database as if nothing were known.
 *
 * What is kept: the caller and the app password's secret (token auth compares md5(secret + salt)),
 * in this isolate's memory only (the Worker holds the keys that open every sealed secret anyway),
 * for at most TTL_MS after the check, the most recently used MAX_KNOWN secrets.
 */
interface Known {
  secret: string;
  caller: Caller;
  /** Lower-case username it was checked with (token and `p` claims name one). */
  username: string;
  expiresAt: number;
}

export const TTL_MS = 10 * 60 * 1000;
export const MAX_KNOWN = 1000;

/** By secret (apiKey and `p` claims send it), in least recently used order. */
const bySecret = new Map<string, Known>();
/** The secrets checked for a username (token claims). */
const byUsername = new Map<string, Set<string>>();

function drop(known: Known) {
  bySecret.delete(known.secret);
  const secrets = byUsername.get(known.username);
  secrets?.delete(known.secret);
  if (secrets?.size === 0) byUsername.delete(known.username);
}

function live(secret: string, now: number): Known | undefined {
  const known = bySecret.get(secret);
  if (!known) return undefined;
  bySecret.delete(secret);
  if (known.expiresAt <= now) {
    drop(known);
    return undefined;
  }
  bySecret.set(secret, known); // most recently used last
  return known;
}

/** md5 in lower-case hex, as the protocol's token is. */
export async function md5Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("MD5", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The caller a claim proved before in this isolate, or null: then the database decides. */
export async function recall(claim: Claim, now: Date): Promise<Caller | null> {
  const at = now.getTime();
  if (claim.form === "apiKey") return live(claim.apiKey, at)?.caller ?? null;
  const username = claim.username.toLowerCase();
  if (claim.form === "password") {
    const known = live(claim.password, at);
    return known?.username === username ? known.caller : null;
  }
  for (const secret of [...(byUsername.get(username) ?? [])]) {
    const known = live(secret, at);
    if (known && timingSafeEqual(await md5Hex(secret + claim.salt), claim.token)) {
      return known.caller;
    }
  }
  return null;
}

/** Keeps what a successful check from the database proved: `secret` is the app password's. */
export function remember(claim: Claim, caller: Caller, secret: string, now: Date) {
  const previous = bySecret.get(secret);
  if (previous) drop(previous);
  const username =
    claim.form === "apiKey" ? caller.username.toLowerCase() : claim.username.toLowerCase();
  const known = { secret, caller, username, expiresAt: now.getTime() + TTL_MS };
  bySecret.set(secret, known);
  byUsername.set(username, (byUsername.get(username) ?? new Set()).add(secret));
  while (bySecret.size > MAX_KNOWN) {
    const oldest = bySecret.values().next().value;
    if (!oldest) break;
    drop(oldest);
  }
}

/** Forgets an app password (its check failed in the database: revoked, renamed, deleted). */
export function forget(appPasswordId: string) {
  for (const known of [...bySecret.values()]) {
    if (known.caller.appPasswordId === appPasswordId) drop(known);
  }
}

/** Forgets everything (tests that count the first call of a credential). */
export function forgetAll() {
  bySecret.clear();
  byUsername.clear();
}

/** How many secrets are kept (tests). */
export const knownCount = () => bySecret.size;
