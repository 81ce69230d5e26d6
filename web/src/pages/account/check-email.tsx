// After a sign-up: "check your email", with the address typed and a way to have the link sent
// again, shown above whatever page the person goes on to until they close it.
import { useEffect, useState } from "preact/hooks";
import { messageOf, ProblemError } from "../../api.ts";
import { resendVerification } from "../../auth-api.ts";
import { verificationMailedTo } from "../../session.ts";
import { Status } from "../../ui/messages.tsx";

/** Seconds the button rests after a send: a second click is rarely a second wish. */
export const RESEND_COOLDOWN_SECONDS = 30;

/** The resend's refusals, said for people (the 429 names the wait when the API gave it). */
function explain(error: unknown): string {
  if (error instanceof ProblemError && error.status === 429) {
    const minutes = error.retryAfter ? Math.max(1, Math.ceil(error.retryAfter / 60)) : undefined;
    return `You have asked for several emails in a short time. Please wait${
      minutes ? ` ${minutes} minute${minutes === 1 ? "" : "s"}` : " a while"
    } and try again, and check your spam folder meanwhile.`;
  }
  if (error instanceof ProblemError && error.status === 409) {
    return "Your address is already verified: there is nothing more to do.";
  }
  return messageOf(error);
}

export function CheckEmail() {
  const mailed = verificationMailedTo.value;
  const [sending, setSending] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [waitUntil, setWaitUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const resting = now < waitUntil;
  useEffect(() => {
    if (!resting) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [resting]);
  if (!mailed) return null;

  const resend = async () => {
    if (sending || resting) return;
    setSending(true);
    setStatus(null);
    setError(null);
    try {
      await resendVerification(mailed.kind);
      setStatus(`Sent again to ${mailed.email}.`);
    } catch (e) {
      setError(explain(e));
    } finally {
      setSending(false);
      const until = Date.now() + RESEND_COOLDOWN_SECONDS * 1000;
      setWaitUntil(until);
      setNow(Date.now());
    }
  };
  const left = Math.ceil((waitUntil - now) / 1000);
  return (
    <section class="check-email" aria-labelledby="check-email-heading">
      <h2 id="check-email-heading" class="small-heading">
        Check your email
      </h2>
      <p>
        We sent a link to <strong class="break">{mailed.email}</strong>. Open it to verify your
        address; meanwhile you can go on using Edge Music.
      </p>
      <div class="row">
        <button type="button" onClick={resend} disabled={sending || resting}>
          Send it again
        </button>
        <button
          type="button"
          class="link"
          onClick={() => {
            verificationMailedTo.value = null;
          }}
        >
          Close
        </button>
        {resting && <span class="muted small">You can ask again in {left} s.</span>}
      </div>
      <p class="muted small">
        Not there? Look in your spam folder. A wrong address can be changed in{" "}
        <a href="/account">your account</a>.
      </p>
      <Status>{status}</Status>
      <div role="alert">{error ? <p class="error">{error}</p> : null}</div>
    </section>
  );
}
