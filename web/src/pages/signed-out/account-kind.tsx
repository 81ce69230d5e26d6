// Pieces of the sign-in and account pages: the account-type choice, the OAuth links, headings of
// steps that take focus, a status line that is always in the page (so its changes are read out).
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { Kind } from "../../api.ts";
import { rememberKind } from "../../session.ts";
import { Field } from "../../ui/parts.tsx";

/** Where an account lands after signing in. */
export const homeOf = (kind: Kind) => (kind === "user" ? "/" : "/studio");

export const asKind = (value: string | undefined): Kind | null =>
  value === "user" || value === "artist" ? value : null;

/** A form's value as sent (passwords are never trimmed; trim names and addresses yourself). */
export const read = (data: FormData, name: string) => String(data.get(name) ?? "");

export function KindChoice({ value, onChange }: { value: Kind; onChange: (kind: Kind) => void }) {
  const options: [Kind, string][] = [
    ["user", "Listener"],
    ["artist", "Artist"],
  ];
  return (
    <fieldset>
      <legend>Account type</legend>
      {options.map(([kind, label]) => (
        <label key={kind} class="check">
          <input
            type="radio"
            name="kind"
            value={kind}
            checked={value === kind}
            onChange={() => onChange(kind)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/** Full-page links: the API redirects to the provider and back to / (see OAuthReturn). */
export function OAuthLinks({ kind }: { kind: Kind }) {
  const providers = [
    ["google", "Google"],
    ["facebook", "Facebook"],
  ];
  return (
    <div class="row">
      {providers.map(([id, name]) => (
        <a
          key={id}
          class="button"
          href={`/api/v1/${kind}s/auth/oauth/${id}`}
          onClick={() => rememberKind(kind)}
        >
          Continue with {name}
        </a>
      ))}
    </div>
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

/** A TOTP field; with `recovery`, a recovery code is accepted too. */
export function CodeField({ name, recovery = false }: { name: string; recovery?: boolean }) {
  return (
    <Field
      label="Authentication code"
      name={name}
      required
      autoComplete="one-time-code"
      spellcheck={false}
      autoCapitalize="off"
      {...(recovery
        ? { minLength: 6, maxLength: 32 }
        : { inputMode: "numeric", pattern: "[0-9]{6}", maxLength: 6 })}
      hint={
        recovery
          ? "The 6-digit code from your authenticator app, or one of your recovery codes."
          : "The 6-digit code from your authenticator app."
      }
    />
  );
}

/** An address field: the API takes at most 254 characters. */
export function EmailField({
  label = "Email",
  name = "email",
  hint,
}: {
  label?: string;
  name?: string;
  hint?: string;
}) {
  return (
    <Field
      label={label}
      name={name}
      type="email"
      required
      autoComplete="email"
      maxLength={254}
      hint={hint}
    />
  );
}

/** A password being chosen: 8 to 128 characters, as the API requires. */
export function NewPasswordField({ label, name }: { label: string; name: string }) {
  return (
    <Field
      label={label}
      name={name}
      type="password"
      required
      autoComplete="new-password"
      minLength={8}
      maxLength={128}
      hint="At least 8 characters, and not a common password."
    />
  );
}

/** The current password, for operations that re-authenticate. */
export function CurrentPasswordField({
  name,
  required = false,
}: {
  name: string;
  required?: boolean;
}) {
  return (
    <Field
      label="Current password"
      name={name}
      type="password"
      autoComplete="current-password"
      required={required}
      maxLength={128}
      hint={required ? undefined : "Leave empty if you sign in only with Google or Facebook."}
    />
  );
}
