// The page an address-verification link opens: the token is sent as soon as the page opens.
import { ProblemError } from "../../api.ts";
import { verifyEmail } from "../../auth-api.ts";
import { account, loadSession, rememberedKind } from "../../session.ts";
import { PageTitle } from "../../ui/headings.tsx";
import { ErrorMessage, Status } from "../../ui/messages.tsx";
import { useResource } from "../../ui/resource.ts";
import { homeOf } from "./account-kind.tsx";
import { explainToken, MissingToken, useLinkToken } from "./mailed-link.tsx";

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
