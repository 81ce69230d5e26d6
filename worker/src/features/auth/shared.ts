import type { RequestDeps } from "../../request-deps.ts";
import type { WithAccount } from "../../security/account-kinds.ts";

/** What the auth services take: the request's dependencies bound to one account kind. */
export type AuthContext = Pick<
  RequestDeps,
  "db" | "env" | "log" | "now" | "ip" | "userAgent" | "waitUntil"
> &
  WithAccount;

export const PENDING_COOKIE = "pending_2fa";
export const STATE_COOKIE = "oauth_state";
