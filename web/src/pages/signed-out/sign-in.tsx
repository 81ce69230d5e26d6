// Signing in: email and password (then the second factor, for an account with 2FA), an identity
// provider, or the second factor of a provider's sign-in that came back with ?twoFactor=required.

import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type Kind, ProblemError } from "../../api.ts";
import { completeSignIn, login } from "../../auth-api.ts";
import {
  type Account,
  account,
  displayName,
  lastSignInKind,
  rememberedKind,
  signedIn,
} from "../../session.ts";
import { CodeField, EmailField } from "../../ui/account-fields.tsx";
import { Field, Form, read } from "../../ui/form.tsx";
import { PageTitle, StepHeading } from "../../ui/headings.tsx";
import { asKind, homeOf, KindChoice, OAuthLinks } from "./account-kind.tsx";

const OAUTH_ERRORS: Record<string, string> = {
  access_denied: "The sign-in with the provider was cancelled. Try again, or sign in another way.",
  invalid_state:
    "The sign-in with the provider could not be checked (it took too long, or began in another tab). Please try again.",
  provider_error:
    "The provider could not sign you in just now. Try again later, or sign in with your email and password.",
};

/** The refusal of a sign-in: the same 401 for an unknown address and a wrong password. */
const refused = (error: unknown) => error instanceof ProblemError && error.status === 401;

/**
 * Signs in as `kind`, or, when that kind refuses the credentials, as the other kind: a person
 * who chose the wrong one (an artist on the page's default, Listener) gets in all the same. The
 * second try tells nothing a wrong password does not (both kinds answer the same 401 for an
 * unknown address); when both refuse, the first refusal is shown. Answers the kind that took
 * them, with the account (null: its second factor is wanted).
 */
async function loginAsEither(
  kind: Kind,
  credentials: { email: string; password: string },
): Promise<{ kind: Kind; next: Account | null }> {
  try {
    return { kind, next: await login(kind, credentials) };
  } catch (error) {
    if (!refused(error)) throw error;
    const other: Kind = kind === "user" ? "artist" : "user";
    try {
      return { kind: other, next: await login(other, credentials) };
    } catch (second) {
      throw refused(second) ? error : second;
    }
  }
}

export function SignIn() {
  const { query, route } = useLocation();
  const done = (next: Account) => {
    signedIn(next);
    route(homeOf(next.kind));
  };
  const oauthError =
    query.error &&
    (OAUTH_ERRORS[query.error] ?? "The sign-in with the provider failed. Please try again.");
  return (
    <>
      <PageTitle title="Sign in">Sign in</PageTitle>
      {account.value && (
        <p class="muted">
          You are signed in as {displayName.value}. <a href="/account">Your account</a>
        </p>
      )}
      {oauthError && (
        <p class="error" role="alert">
          {oauthError}
        </p>
      )}
      {query.twoFactor === "required" ? (
        <ProviderSecondFactor done={done} />
      ) : (
        <PasswordSignIn
          initialKind={asKind(query.kind) ?? rememberedKind() ?? lastSignInKind() ?? "user"}
          done={done}
        />
      )}
    </>
  );
}

function PasswordSignIn({
  initialKind,
  done,
}: {
  initialKind: Kind;
  done: (next: Account) => void;
}) {
  const [kind, setKind] = useState(initialKind);
  // The password was right and a second factor is wanted: the same sign-in is sent again with it.
  const [pending, setPending] = useState<{ email: string; password: string } | null>(null);
  if (pending) {
    return (
      <>
        <StepHeading>Two-factor authentication</StepHeading>
        <Form
          label="Second factor"
          submit="Verify"
          onSubmit={async (data) => {
            const next = await login(kind, { ...pending, code: read(data, "code").trim() });
            if (!next) throw new Error("The code was not accepted. Please try again.");
            done(next);
          }}
        >
          <CodeField name="code" recovery />
        </Form>
        <button type="button" class="link" onClick={() => setPending(null)}>
          Start again
        </button>
      </>
    );
  }
  return (
    <>
      <Form
        label="Sign in"
        submit="Sign in"
        onSubmit={async (data) => {
          const credentials = {
            email: read(data, "email").trim(),
            password: read(data, "password"),
          };
          const answer = await loginAsEither(kind, credentials);
          // The kind that took the credentials is offered first next time (signedIn, in done).
          setKind(answer.kind);
          if (answer.next) done(answer.next);
          else setPending(credentials);
        }}
      >
        <KindChoice value={kind} onChange={setKind} />
        <p class="muted small">
          Listeners play and collect music; artists upload theirs. Not sure which you are? Sign in
          anyway: if this type refuses your email and password, the other is tried.
        </p>
        <EmailField />
        <Field
          label="Password"
          name="password"
          type="password"
          required
          autoComplete="current-password"
          maxLength={128}
        />
      </Form>
      <p>
        <a href="/forgot-password">Forgot your password?</a>
      </p>
      <p class="muted">Or sign in with an account you already have:</p>
      <OAuthLinks kind={kind} />
      <p>
        New here? <a href={`/sign-up?kind=${kind}`}>Create an account</a>.
      </p>
    </>
  );
}

/** Back from a provider for an account with 2FA: the API keeps the pending sign-in in a cookie. */
function ProviderSecondFactor({ done }: { done: (next: Account) => void }) {
  const kind = rememberedKind() ?? "user";
  return (
    <>
      <StepHeading>Two-factor authentication</StepHeading>
      <p>Your account has two-factor authentication: enter a code to finish signing in.</p>
      <Form
        label="Second factor"
        submit="Verify"
        onSubmit={async (data) => done(await completeSignIn(kind, read(data, "code").trim()))}
      >
        <CodeField name="code" recovery />
      </Form>
      <p class="muted small">
        The sign-in waits 5 minutes for the code. Too late? <a href="/sign-in">Sign in again</a>.
      </p>
    </>
  );
}
