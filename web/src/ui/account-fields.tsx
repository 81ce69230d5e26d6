// The fields of an account, as the API bounds them: an address, a new or the current password,
// an authentication code. Signing in and up and the account page ask them alike.
import { Field } from "./form.tsx";

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
