import { randomBytes } from "node:crypto";
import { OAUTH_TEST_CLIENTS, type OAuthClient, type OAuthProvider } from "./clients.ts";

/** An authorization code is redeemable this long after it was issued. */
export const CODE_TTL_MS = 60_000;
/** Lifetime of an access token (`expires_in` of the token response). */
export const ACCESS_TOKEN_TTL_S = 3600;

/** The account that "signs in" on the consent screen. */
export interface Identity {
  sub: string;
  /** Undefined when the account has no email address (`email=` with an empty value). */
  email: string | undefined;
  emailVerified: boolean;
  name: string;
}

export interface Grant {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  identity: Identity;
  issuedAt: number;
  /** The access token the code was exchanged for; a replay of the code revokes it. */
  accessToken: string | undefined;
}

export interface AccessToken {
  clientId: string;
  scope: string;
  identity: Identity;
  expiresAt: number;
}

/** One provider's memory: its clients, outstanding codes and live tokens. */
export interface ProviderState {
  name: OAuthProvider;
  /** client_id → client_secret */
  clients: Map<string, string>;
  codes: Map<string, Grant>;
  tokens: Map<string, AccessToken>;
  now: () => number;
}

export function createProviderState(
  name: OAuthProvider,
  extraClients: OAuthClient[],
  now: () => number,
): ProviderState {
  const clients = new Map<string, string>();
  for (const client of [OAUTH_TEST_CLIENTS[name], ...extraClients])
    clients.set(client.clientId, client.clientSecret);
  return { name, clients, codes: new Map(), tokens: new Map(), now };
}

/** Drops codes and tokens nobody can use any more, so a long dev session does not grow forever. */
export function sweep(state: ProviderState): void {
  const now = state.now();
  // Redeemed codes are kept a while longer than their lifetime, so a replay is recognised as one.
  for (const [code, grant] of state.codes)
    if (now - grant.issuedAt > 10 * CODE_TTL_MS) state.codes.delete(code);
  for (const [token, access] of state.tokens)
    if (access.expiresAt <= now) state.tokens.delete(token);
}

/** 256 random bits, base64url: codes and access tokens. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** A numeric account id, as both providers use. */
export function randomSubject(): string {
  return BigInt(`0x${randomBytes(8).toString("hex")}`).toString();
}

/** The scope values granted, whether they were sent space- (RFC 6749) or comma-separated (Facebook). */
export function scopes(scope: string): Set<string> {
  return new Set(scope.split(/[\s,]+/).filter(Boolean));
}
