// Headings that take the focus, so that no one is left nowhere: a page's title (a screen reader
// hears the new page), and the heading of a step that replaces a form.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

/** The page's heading: sets the document title and takes focus, so a screen reader hears the new page. */
export function PageTitle({ children, title }: { children: ComponentChildren; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Edge Music`;
    // Not while someone types (the header's search box opens the search page as they type).
    const active = document.activeElement;
    if (!(active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement)) {
      ref.current?.focus({ preventScroll: true });
    }
  }, [title]);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

/** The heading of a step that replaces a form: focus goes to it, so no one is left nowhere. */
export function StepHeading({
  children,
  level = 2,
}: {
  children: ComponentChildren;
  level?: 2 | 3;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const Tag = level === 2 ? "h2" : "h3";
  return (
    <Tag ref={ref} tabIndex={-1}>
      {children}
    </Tag>
  );
}
