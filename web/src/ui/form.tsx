// Small shared pieces: titles that move focus, fields with labels and errors, busy buttons.
import type { ComponentChildren, InputHTMLAttributes } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { mediaUrl, messageOf } from "../api.ts";
import { useAction } from "./action.ts";

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

type InputProps = InputHTMLAttributes & {
  type?: string;
  label: string;
  name: string;
  hint?: string;
};

/** A labelled input; the hint is read with it (aria-describedby). */
export function Field({ label, hint, name, ...input }: InputProps) {
  const id = `field-${name}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} name={name} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && (
        <small id={`${id}-hint`} class="muted">
          {hint}
        </small>
      )}
    </div>
  );
}

/**
 * A form that sends once at a time: `onSubmit` gets the form's data; its error is shown under
 * the form (role=alert), the button says it is busy meanwhile.
 */
export function Form({
  onSubmit,
  submit,
  children,
  label,
}: {
  onSubmit: (data: FormData) => Promise<unknown>;
  submit: string;
  children: ComponentChildren;
  label?: string;
}) {
  const { busy, error, run } = useAction();
  return (
    <form
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        void run(() => onSubmit(data));
      }}
    >
      {children}
      <ErrorMessage error={error} />
      {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
      <button type="submit" class="primary" aria-disabled={busy} aria-busy={busy}>
        {busy ? `${submit}…` : submit}
      </button>
    </form>
  );
}

/** A cover or avatar, or a neutral tile when there is none; decorative unless given `alt`. */
export function Cover({
  src,
  alt = "",
  size = 48,
}: {
  src: string | null | undefined;
  alt?: string;
  size?: number;
}) {
  const url = mediaUrl(src);
  return url ? (
    <img class="cover" src={url} alt={alt} width={size} height={size} loading="lazy" />
  ) : (
    <span
      class="cover placeholder"
      style={{ width: `${size}px`, height: `${size}px` }}
      aria-hidden="true"
    />
  );
}

export function formatTime(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds)) return "–:––";
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** "1 track", "2 tracks". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
