// The studio's inline edit forms (a track's, an album's): the first field takes the focus when the
// panel opens, and Escape anywhere in it closes it.
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";

export function EditPanel({
  onClose,
  children,
}: {
  onClose: () => void;
  children: ComponentChildren;
}) {
  const box = useRef<HTMLDivElement>(null);
  // Before the panel is painted: focus moved later (an effect runs after paint) could land in the
  // middle of typing that already began in another field, and carry the rest into the first one.
  useLayoutEffect(() => box.current?.querySelector<HTMLElement>("input")?.focus(), []);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the form closes it; the form's own controls stay the way to use it.
    <div
      class="full edit"
      ref={box}
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
      }}
    >
      {children}
    </div>
  );
}
