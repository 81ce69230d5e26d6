import { artistAuth, artists, userAuth, users } from "@edge-music/db";
import { overlay } from "../request-deps.ts";
import type { PrincipalKind } from "./principal.ts";

export type { PrincipalKind } from "./principal.ts";

/**
 * Everything that differs between the two account kinds. The auth code is written once: users
 * and artists have the same auth columns and the same auth tables (artists add profile columns
 * with defaults), so a query over the union of the two types checks against both.
 */
export interface AccountKind {
  readonly name: PrincipalKind;
  readonly principals: typeof users | typeof artists;
  readonly auth: typeof userAuth | typeof artistAuth;
  /** Where this kind's auth routes live; the refresh cookie is scoped to it. */
  readonly authPath: string;
  /** The OpenAPI tag of its auth routes. */
  readonly tag: string;
  /** `a user` / `an artist`, for messages and descriptions. */
  readonly aName: string;
}

export const ACCOUNT_KINDS: Readonly<Record<PrincipalKind, AccountKind>> = {
  user: {
    name: "user",
    principals: users,
    auth: userAuth,
    authPath: "/api/v1/users/auth",
    tag: "User auth",
    aName: "a user",
  },
  artist: {
    name: "artist",
    principals: artists,
    auth: artistAuth,
    authPath: "/api/v1/artists/auth",
    tag: "Artist auth",
    aName: "an artist",
  },
};

/** What the auth code takes besides its request dependencies: the account kind it serves. */
export interface WithAccount {
  readonly account: AccountKind;
}

/**
 * The request's dependencies bound to one account kind: the auth routes of each kind make their
 * services' context with it, once per request. The dependencies stay lazy (nothing is opened
 * until a service reads it).
 */
export const bindAccount = <D extends object>(deps: D, account: AccountKind) =>
  overlay(deps, { account });
