// The password and the email address of the signed-in account.
import { useState } from "preact/hooks";
import type { Kind } from "../../api.ts";
import { changeEmail, changePassword, resendVerification } from "../../auth-api.ts";
import {
  CodeField,
  CurrentPasswordField,
  EmailField,
  NewPasswordField,
} from "../../ui/account-fields.tsx";
import { useAction } from "../../ui/action.ts";
import { Form, read } from "../../ui/form.tsx";
import { ErrorMessage, Status } from "../../ui/messages.tsx";

/** Empties a form after a success without remounting it, so focus stays on its button. */
const clearFormOf = (fieldId: string) =>
  (document.getElementById(fieldId) as HTMLInputElement | null)?.form?.reset();

export function PasswordSection({ kind, changed }: { kind: Kind; changed: () => void }) {
  const [status, setStatus] = useState<string | null>(null);
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <p class="muted small">
        Changing it signs out every other session. Signed up with Google or Facebook? You have no
        password yet: <a href="/forgot-password">set one with a reset link</a>.
      </p>
      <Form
        label="Change password"
        submit="Change password"
        onSubmit={async (data) => {
          setStatus(null);
          await changePassword(kind, {
            currentPassword: read(data, "password-current"),
            newPassword: read(data, "password-new"),
          });
          clearFormOf("field-password-new");
          setStatus("Your password is changed. Every other session of the account was signed out.");
          changed();
        }}
      >
        <CurrentPasswordField name="password-current" required />
        <NewPasswordField label="New password" name="password-new" />
      </Form>
      <Status>{status}</Status>
    </section>
  );
}

export function EmailSection({
  kind,
  email,
  verified,
  twoFactor,
}: {
  kind: Kind;
  /** Shown to listeners; an artist's address is never sent to the client. */
  email?: string;
  verified: boolean;
  twoFactor: boolean;
}) {
  const [status, setStatus] = useState<string | null>(null);
  const resend = useAction();
  return (
    <section aria-labelledby="email-heading">
      <h2 id="email-heading">Email</h2>
      {email && (
        <p>
          Your address: <strong>{email}</strong>
          {verified ? " (verified)" : ""}
        </p>
      )}
      {!verified && (
        <div class="row">
          <span>Your address is not verified yet.</span>
          <button
            type="button"
            disabled={resend.busy}
            onClick={() =>
              resend.run(async () => {
                setStatus(null);
                setStatus((await resendVerification(kind)).message);
              })
            }
          >
            Send a new verification link
          </button>
        </div>
      )}
      <ErrorMessage error={resend.error} />
      <Form
        label="Change email"
        submit="Change email"
        onSubmit={async (data) => {
          setStatus(null);
          const answer = await changeEmail(kind, {
            email: read(data, "email-new").trim(),
            password: read(data, "email-password") || undefined,
            code: twoFactor ? read(data, "email-code").trim() : undefined,
          });
          clearFormOf("field-email-new");
          setStatus(answer.message);
        }}
      >
        <EmailField
          label="New email"
          name="email-new"
          hint="We email a link there; the address changes when you open it."
        />
        <CurrentPasswordField name="email-password" />
        {twoFactor && <CodeField name="email-code" />}
      </Form>
      <Status>{status}</Status>
    </section>
  );
}
