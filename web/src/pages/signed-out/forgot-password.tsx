// Asking for a password reset: the account's address gets a link to /reset-password.
import { useState } from "preact/hooks";
import type { Kind } from "../../api.ts";
import { forgotPassword } from "../../auth-api.ts";
import { rememberedKind } from "../../session.ts";
import { EmailField } from "../../ui/account-fields.tsx";
import { Form, read } from "../../ui/form.tsx";
import { PageTitle } from "../../ui/headings.tsx";
import { Status } from "../../ui/messages.tsx";
import { KindChoice } from "./account-kind.tsx";

export function ForgotPassword() {
  const [kind, setKind] = useState<Kind>(rememberedKind() ?? "user");
  const [sent, setSent] = useState<string | null>(null);
  return (
    <>
      <PageTitle title="Forgot your password?">Forgot your password?</PageTitle>
      <p>Enter your account's address: we will email it a link to set a new password.</p>
      <Form
        label="Ask for a reset link"
        submit="Send reset link"
        onSubmit={async (data) => {
          setSent(null);
          const answer = await forgotPassword(kind, { email: read(data, "email").trim() });
          setSent(answer.message);
        }}
      >
        <KindChoice value={kind} onChange={setKind} />
        <EmailField />
      </Form>
      <Status>
        {sent && `${sent} The link works for one hour; if nothing arrives, check the spam folder.`}
      </Status>
      <p>
        <a href="/sign-in">Back to sign in</a>
      </p>
    </>
  );
}
