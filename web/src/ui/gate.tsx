// Pages for one kind of account: "Loading…" while the session is read, the page for the right
// account, and a sign-in link for anyone else.
import type { ComponentChildren } from "preact";
import { type Account, account } from "../session.ts";
import { PageTitle } from "./headings.tsx";
import { Loading } from "./messages.tsx";

type Kind = Account["kind"];

export function OnlyFor<K extends Kind>({
  kind,
  title,
  why,
  children,
}: {
  /** Who may see the page; null: any signed-in account. */
  kind: K | null;
  title: string;
  /** What to sign in for: "as a listener to see this page". */
  why: string;
  children: (account: Extract<Account, { kind: K }>) => ComponentChildren;
}) {
  const current = account.value;
  if (current === undefined) return <Loading />;
  if (current && (kind === null || current.kind === kind)) {
    return <>{children(current as Extract<Account, { kind: K }>)}</>;
  }
  return (
    <>
      <PageTitle title={title}>{title}</PageTitle>
      <p>
        <a href="/sign-in">Sign in</a> {why}.
      </p>
    </>
  );
}
