// Creating an account, a listener's or an artist's, with a password or an identity provider.
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import type { Kind } from "../../api.ts";
import { register } from "../../auth-api.ts";
import { signedIn, verificationMailedTo } from "../../session.ts";
import { EmailField, NewPasswordField } from "../../ui/account-fields.tsx";
import { Field, Form, read } from "../../ui/form.tsx";
import { PageTitle } from "../../ui/headings.tsx";
import { asKind, homeOf, KindChoice, OAuthLinks } from "./account-kind.tsx";

export function SignUp() {
  const { query, route } = useLocation();
  const [kind, setKind] = useState<Kind>(asKind(query.kind) ?? "user");
  return (
    <>
      <PageTitle title="Create an account">Create an account</PageTitle>
      <Form
        label="Create an account"
        submit="Create account"
        onSubmit={async (data) => {
          const email = read(data, "email").trim();
          const next = await register(kind, {
            username: read(data, "username").trim(),
            email,
            password: read(data, "password"),
          });
          // Signed in at once: the shell asks to check the address, on the page they go on to.
          signedIn(next);
          verificationMailedTo.value = { kind: next.kind, email };
          route(homeOf(next.kind));
        }}
      >
        <KindChoice value={kind} onChange={setKind} />
        <Field
          label="Username"
          name="username"
          required
          autoComplete="username"
          autoCapitalize="off"
          spellcheck={false}
          minLength={3}
          maxLength={30}
          pattern="[A-Za-z0-9_.\-]{3,30}"
          hint="3 to 30 letters, digits, dots, dashes or underscores."
        />
        <EmailField />
        <NewPasswordField label="Password" name="password" />
      </Form>
      <p class="muted">Or sign up with an account you already have:</p>
      <OAuthLinks kind={kind} />
      <p>
        Already have an account? <a href={`/sign-in?kind=${kind}`}>Sign in</a>.
      </p>
    </>
  );
}
