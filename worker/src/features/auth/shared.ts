import type { PrincipalKind } from "../../security/account-kinds.ts";

export const tagOf = (kind: PrincipalKind) => (kind === "user" ? "User auth" : "Artist auth");

/** `a user` / `an artist`, for descriptions. */
export const aKind = (kind: PrincipalKind) => (kind === "user" ? "a user" : "an artist");

export const PENDING_COOKIE = "pending_2fa";
export const STATE_COOKIE = "oauth_state";
