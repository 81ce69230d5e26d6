// Signing up, and the pages the mailed links open: a password reset, an address verification.
// Signing in lives in account/sign-in.tsx.

import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type Kind, ProblemError } from "../api.ts";
import { account, loadSession, rememberedKind, signedIn } from "../session.ts";
import { ErrorMessage, Field, Form, PageTitle } from "../ui/parts.tsx";
import { useResource } from "../ui/resource.ts";
import { forgotPassword, register, resetPassword, verifyEmail } from "./account/auth-api.ts";
import {
  asKind,
  EmailField,
  homeOf,
  KindChoice,
  NewPasswordField,
  OAuthLinks,
  read,
  Status,
  StepHeading,
} from "./account/parts.tsx";

export { SignIn } from "./account/sign-in.tsx";

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
          const next = await register(kind, {
            username: read(data, "username").trim(),
            email: read(data, "email").trim(),
            password: read(data, "password"),
          });
          signedIn(next);
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

/**
 * The one-time token of a mailed link, taken from the address, which is then replaced by one
 * without it: the token does not stay in the history or in a bookmark of the page.
 */
function useLinkToken(): string {
  const { path, query, route } = useLocation();
  const [token] = useState(query.token ?? "");
  useEffect(() => {
    if (query.token === undefined) return;
    const rest = new URLSearchParams(
      Object.entries(query).filter(([name]) => name !== "token") as [string, string][],
    ).toString();
    route(rest ? `${path}?${rest}` : path, true);
  }, []);
  return token;
}

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

export function VerifyEmail() {
  const token = useLinkToken();
  const result = useResource(async () => {
    if (!token) return null;
    // The link does not say the kind: the remembered one first, then the other.
    const first = rememberedKind() ?? "user";
    let failure: unknown;
    for (const kind of [first, first === "user" ? "artist" : "user"] as const) {
      try {
        const verified = await verifyEmail(kind, { token });
        if (account.value?.kind === kind) void loadSession();
        return verified;
      } catch (error) {
        // Only "not a token of this kind" (400) is worth asking the other kind about.
        if (!(error instanceof ProblemError && error.status === 400)) throw error;
        failure ??= error;
      }
    }
    return explainToken(
      "This link does not work: it was used already, it expired, or the address changed since.",
    )(failure);
  }, [token]);
  return (
    <>
      <PageTitle title="Verify your email">Verify your email</PageTitle>
      {!token && <MissingToken />}
      <Status muted={result.loading}>
        {result.loading
          ? "Checking the link…"
          : result.data && `Thank you: ${result.data.email} is verified.`}
      </Status>
      <ErrorMessage error={result.error} />
      {result.error != null && (
        <p class="muted">
          Links work once, for 24 hours. Signed in, you can ask for a new one on{" "}
          <a href="/account">your account page</a>.
        </p>
      )}
      {result.data && (
        <p>
          <a href={account.value ? homeOf(account.value.kind) : "/sign-in"}>Continue</a>
        </p>
      )}
    </>
  );
}

/** A rejected token (`invalid_token`) said in a sentence; any other error stays as it is. */
const explainToken =
  (sentence: string) =>
  (error: unknown): never => {
    const invalid =
      error instanceof ProblemError && error.errors.some((e) => e.code === "invalid_token");
    throw invalid ? new Error(sentence) : error;
  };

function MissingToken() {
  return (
    <p class="error" role="alert">
      This link is incomplete. Open it again from the email, or copy the whole address into the
      browser.
    </p>
  );
}
