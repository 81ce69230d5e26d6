// What a page says while it works: an error (role=alert), "Loading…", and a status line that is
// always in the page, so that screen readers announce its changes.
import type { ComponentChildren } from "preact";
import { messageOf } from "../api.ts";

export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {messageOf(error)}
    </p>
  );
}

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <p class="muted" role="status">
      {label}
    </p>
  );
}

/** A live region that exists before its message does, so screen readers announce the message. */
export function Status({
  children,
  muted = false,
}: {
  children?: ComponentChildren;
  muted?: boolean;
}) {
  return (
    <div role="status">{children ? <p class={muted ? "muted" : "ok"}>{children}</p> : null}</div>
  );
}
