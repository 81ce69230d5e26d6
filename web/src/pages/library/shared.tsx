// What the listener's own pages share: the listener-only gate and focus after a row goes.
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { OnlyFor } from "../../ui/gate.tsx";

/** The page for a signed-in listener; anyone else is asked to sign in as one. */
export function ListenerOnly({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <OnlyFor kind="user" title={title} why="as a listener to see this page">
      {() => children}
    </OnlyFor>
  );
}

/**
 * Keyboard focus after a row goes (removed, or a button that vanished): the same button of the
 * row now at `index` (or the last one), else the page's heading, never the start of the page.
 */
export function useFocusAt(selector: string) {
  const box = useRef<HTMLDivElement>(null);
  const wanted = useRef<number | null>(null);
  // At commit, not after paint: an effect of an earlier render must not take the request.
  useLayoutEffect(() => {
    const index = wanted.current;
    if (index === null) return;
    wanted.current = null;
    const buttons = box.current?.querySelectorAll<HTMLElement>(selector);
    const target = buttons?.[Math.min(index, buttons.length - 1)];
    (target ?? document.querySelector<HTMLElement>("main h1"))?.focus();
  });
  return {
    box,
    focusAt: (index: number) => {
      wanted.current = index;
    },
  };
}
