// The gate of a listener's own pages.
import type { ComponentChildren } from "preact";
import { OnlyFor } from "../../ui/gate.tsx";

/** The page for a signed-in listener; anyone else is asked to sign in as one. */
export function ListenerOnly({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <OnlyFor kind="user" title={title} why="as a listener to see this page">
      {() => children}
    </OnlyFor>
  );
}
