// Two-factor authentication (TOTP): set up (re-authenticate, scan, confirm with a first code),
// then turn off or replace the recovery codes. Recovery codes are shown once, right here.
import { useRef, useState } from "preact/hooks";
import type { components, Kind } from "../../api.ts";
import {
  confirmTwoFactor,
  newRecoveryCodes,
  startTwoFactor,
  turnOffTwoFactor,
} from "../../auth-api.ts";
import { CodeField, CurrentPasswordField } from "../../ui/account-fields.tsx";
import { Form, read } from "../../ui/form.tsx";
import { StepHeading } from "../../ui/headings.tsx";
import { Status } from "../../ui/messages.tsx";

type Setup = components["schemas"]["TwoFactorSetup"];

const OTHERS_ENDED = "Every other session of the account was signed out.";

/** Code and password of a re-authenticated operation (the password only when one was typed). */
const reauth = (data: FormData, prefix: string) => ({
  code: read(data, `${prefix}-code`).trim(),
  password: read(data, `${prefix}-password`) || undefined,
});

export function TwoFactorSection({
  kind,
  enabled,
  changed,
}: {
  kind: Kind;
  enabled: boolean;
  /** 2FA was turned on or off (other sessions ended); `on` is its state now. */
  changed: (on: boolean) => void;
}) {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const start = async (data: FormData) => {
    setStatus(null);
    setSetup(await startTwoFactor(kind, { password: read(data, "setup-password") || undefined }));
  };
  const confirm = async (data: FormData) => {
    const answer = await confirmTwoFactor(kind, { code: read(data, "setup-code").trim() });
    setSetup(null);
    setCodes(answer.recoveryCodes);
    changed(true);
  };
  let body = null;
  if (codes) {
    body = <RecoveryCodes codes={codes} done={() => setCodes(null)} />;
  } else if (setup) {
    body = (
      <>
        <StepHeading level={3}>Scan the QR code</StepHeading>
        <p>Scan it with your authenticator app, then enter the code the app shows.</p>
        <img
          class="qr"
          src={`data:image/png;base64,${setup.qrCode}`}
          alt="QR code for your authenticator app"
        />
        <p>
          No camera? Enter this key in the app instead: <code class="break">{setup.secret}</code>
        </p>
        <Form label="Turn on two-factor authentication" submit="Turn on" onSubmit={confirm}>
          <CodeField name="setup-code" />
        </Form>
        <button type="button" class="link" onClick={() => setSetup(null)}>
          Cancel
        </button>
      </>
    );
  } else if (!enabled) {
    body = (
      <>
        <p>Off. With it on, signing in also asks for a code from an authenticator app.</p>
        <Form
          label="Set up two-factor authentication"
          submit="Set up two-factor authentication"
          onSubmit={start}
        >
          <CurrentPasswordField name="setup-password" />
        </Form>
      </>
    );
  } else {
    body = (
      <>
        <p>On: signing in asks for a code from your authenticator app.</p>
        <h3 class="small-heading">Turn off two-factor authentication</h3>
        <Form
          label="Turn off two-factor authentication"
          submit="Turn off"
          onSubmit={async (data) => {
            setStatus(null);
            await turnOffTwoFactor(kind, reauth(data, "off"));
            changed(false);
            setStatus(`Two-factor authentication is off. ${OTHERS_ENDED}`);
          }}
        >
          <CodeField name="off-code" />
          <CurrentPasswordField name="off-password" />
        </Form>
        <h3 class="small-heading">Replace the recovery codes</h3>
        <Form
          label="New recovery codes"
          submit="New recovery codes"
          onSubmit={async (data) => {
            setStatus(null);
            setCodes((await newRecoveryCodes(kind, reauth(data, "codes"))).recoveryCodes);
            changed(true);
          }}
        >
          <p class="muted small">New codes replace the old ones, which stop working.</p>
          <CodeField name="codes-code" />
          <CurrentPasswordField name="codes-password" />
        </Form>
      </>
    );
  }
  return (
    <section aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-factor authentication</h2>
      {body}
      <Status>{status}</Status>
    </section>
  );
}

function RecoveryCodes({ codes, done }: { codes: string[]; done: () => void }) {
  const list = useRef<HTMLOListElement>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const text = recoveryCodesText(codes);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(text);
      setSaved("Copied the codes. Paste them into your password manager.");
    } catch {
      // Refused (no permission, an insecure origin, an old browser): the codes are selected, so
      // that the keyboard's copy takes them.
      const selection = window.getSelection();
      if (list.current && selection) selection.selectAllChildren(list.current);
      setSaved(
        "Your browser did not let the page copy them: the codes are selected, copy them with Ctrl+C (⌘C on a Mac), or download them.",
      );
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "edge-music-recovery-codes.txt";
    document.body.append(link);
    link.click();
    link.remove();
    // After the click has handed the file over; revoking at once can cancel it in some browsers.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setSaved("Downloaded edge-music-recovery-codes.txt.");
  };
  return (
    <>
      <StepHeading level={3}>Your recovery codes</StepHeading>
      <p>
        Keep these codes somewhere safe, such as a password manager: each one signs you in once if
        you lose your authenticator. They are shown only now. {OTHERS_ENDED}
      </p>
      <ol ref={list} aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div class="row">
        <button type="button" onClick={copy}>
          Copy codes
        </button>
        <button type="button" onClick={download}>
          Download codes (.txt)
        </button>
      </div>
      <Status>{saved}</Status>
      <button type="button" class="primary" onClick={done}>
        I have saved them
      </button>
    </>
  );
}

/** The codes as a file or a paste: one a line, after a line that says what they are. */
const recoveryCodesText = (codes: string[]) =>
  `Edge Music recovery codes (each signs you in once; made ${new Date().toISOString().slice(0, 10)}):\n${codes.join("\n")}\n`;
