// Forms: a labelled field, a form that sends once at a time and shows its error, a form's value.
import type { ComponentChildren, InputHTMLAttributes } from "preact";
import { useAction } from "./action.ts";
import { ErrorMessage } from "./messages.tsx";

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

/** A form's value as sent (passwords are never trimmed; trim names and addresses yourself). */
export const read = (data: FormData, name: string) => String(data.get(name) ?? "");
