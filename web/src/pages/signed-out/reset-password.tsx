// The page a password-reset link opens: a new password for the account of the chosen kind.
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import type { Kind } from "../../api.ts";
import { resetPassword } from "../../auth-api.ts";
import { NewPasswordField } from "../../ui/account-fields.tsx";
import { Form, read } from "../../ui/form.tsx";
import { PageTitle, StepHeading } from "../../ui/headings.tsx";
import { asKind, KindChoice } from "./account-kind.tsx";
import { explainToken, MissingToken, useLinkToken } from "./mailed-link.tsx";

export function ResetPassword() {
  const { query } = useLocation();
  const token = useLinkToken();
  // The link does not say which kind of account it is for: a listener's, unless told otherwise.
  const [kind, setKind] = useState<Kind>(asKind(query.kind) ?? "user");
  const [done, setDone] = useState(false);
  return (
    <>
      <PageTitle title="Set a new password">Set a new password</PageTitle>
      {!token ? (
        <MissingToken />
      ) : done ? (
        <>
          <StepHeading>Password set</StepHeading>
          <p class="ok">
            Your new password is set, and every session of the account was signed out.{" "}
            <a href={`/sign-in?kind=${kind}`}>Sign in</a> with it.
          </p>
        </>
      ) : (
        <Form
          label="Password reset"
          submit="Set new password"
          onSubmit={async (data) => {
            await resetPassword(kind, { token, password: read(data, "password") }).catch(
              explainToken(
                `This link does not work for ${kind === "user" ? "a listener" : "an artist"} account: check the account type, or ask for a new link (links work once, for one hour).`,
              ),
            );
            setDone(true);
          }}
        >
          <KindChoice value={kind} onChange={setKind} />
          <p class="muted small">
            Choose the type of the account whose password you asked to reset.
          </p>
          <NewPasswordField label="New password" name="password" />
        </Form>
      )}
    </>
  );
}
