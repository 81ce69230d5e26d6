// Keeping the keyboard's place when the element that had the focus goes away (a removed row, a
// moved row, a button that vanished): the page asks, at the next commit, for the element to focus.
import { useLayoutEffect, useRef } from "preact/hooks";

type Focusable = HTMLElement | null | undefined;
type Finder<E> = (box: E) => Focusable;

/**
 * `focusNext(find)`: at the next commit, focus what `find` picks inside `box`, else what
 * `fallback` picks (by default the page's heading), never the start of the page.
 */
export function useFocusNext<E extends HTMLElement = HTMLDivElement>(
  fallback: (box: E | null) => Focusable = () => document.querySelector<HTMLElement>("main h1"),
) {
  const box = useRef<E>(null);
  const wanted = useRef<Finder<E> | null>(null);
  // At commit, not after paint: an effect of an earlier render must not take the request.
  useLayoutEffect(() => {
    const find = wanted.current;
    if (!find) return;
    wanted.current = null;
    const within = box.current;
    ((within && find(within)) || fallback(within))?.focus();
  });
  return {
    box,
    focusNext: (find: Finder<E>) => {
      wanted.current = find;
    },
  };
}

/**
 * After a row goes: the same control (`selector`) of the row now at `index`, or the last one,
 * else `fallback` (by default the page's heading).
 */
export function useFocusAt<E extends HTMLElement = HTMLDivElement>(
  selector: string,
  fallback?: (box: E | null) => Focusable,
) {
  const { box, focusNext } = useFocusNext<E>(fallback);
  return {
    box,
    focusAt: (index: number) =>
      focusNext((within) => {
        const all = within.querySelectorAll<HTMLElement>(selector);
        return all[Math.min(index, all.length - 1)];
      }),
  };
}
