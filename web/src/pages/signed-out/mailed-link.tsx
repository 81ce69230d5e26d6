// What the pages that mailed links open share (a password reset, an address verification): the
// link's token, and what to say when it is missing or refused.
import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { ProblemError } from "../../api.ts";

/**
 * The one-time token of a mailed link, taken from the address, which is then replaced by one
 * without it: the token does not stay in the history or in a bookmark of the page.
 */
export function useLinkToken(): string {
  const { path, query, route } = useLocation();
  const [token] = useState(query.token ?? "");
  useEffect(() => {
    if (query.token === undefined) return;
    const rest = new URLSearchParams(
      Object.entries(query).filter(([name]) => name !== "token") as [string, string][],
    ).toString();
    route(rest ? `${path}?${rest}` : path, true);
  }, []);
  return token;
}

/** A rejected token (`invalid_token`) said in a sentence; any other error stays as it is. */
export const explainToken =
  (sentence: string) =>
  (error: unknown): never => {
    const invalid =
      error instanceof ProblemError && error.errors.some((e) => e.code === "invalid_token");
    throw invalid ? new Error(sentence) : error;
  };

export function MissingToken() {
  return (
    <p class="error" role="alert">
      This link is incomplete. Open it again from the email, or copy the whole address into the
      browser.
    </p>
  );
}
