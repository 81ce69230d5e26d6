// The signed-in account: who it is, its sessions, two-factor authentication, password and email,
// signing out, and a copy of the account's data.

import { useEffect } from "preact/hooks";
import { useLocation } from "preact-iso";
import { ProblemError } from "../../api.ts";
import { exportData, listSessions } from "../../auth-api.ts";
import { account, type Account as SignedInAccount, signedOutHere, signOut } from "../../session.ts";
import { useAction } from "../../ui/action.ts";
import { OnlyFor } from "../../ui/gate.tsx";
import { PageTitle } from "../../ui/headings.tsx";
import { ErrorMessage } from "../../ui/messages.tsx";
import { useResource } from "../../ui/resource.ts";
import { AppPasswordsSection } from "./app-passwords.tsx";
import { EmailSection, PasswordSection } from "./credentials.tsx";
import { DisplayNameSection } from "./display-name.tsx";
import { SessionsSection } from "./sessions.tsx";
import { TwoFactorSection } from "./two-factor.tsx";

export function Account() {
  return (
    <OnlyFor kind={null} title="Your account" why="to see your account">
      {(current) => {
        const id = current.kind === "user" ? current.user.id : current.artist.id;
        return <AccountPage key={`${current.kind}:${id}`} current={current} />;
      }}
    </OnlyFor>
  );
}

/** The account signal, with 2FA turned on or off (the API answers with the state, not the account). */
function setTwoFactor(twoFactorEnabled: boolean) {
  const a = account.value;
  if (!a) return;
  account.value =
    a.kind === "user"
      ? { kind: "user", user: { ...a.user, twoFactorEnabled } }
      : { kind: "artist", artist: { ...a.artist, twoFactorEnabled } };
}

function AccountPage({ current }: { current: SignedInAccount }) {
  const { route } = useLocation();
  const { kind } = current;
  const me = current.kind === "user" ? current.user : current.artist;
  const sessions = useResource((signal) => listSessions(kind, signal), [kind]);
  const leave = useAction();
  useEffect(() => {
    // The session ended elsewhere (signed out from another device): forget it here too.
    if (sessions.error instanceof ProblemError && sessions.error.status === 401) signedOutHere();
  }, [sessions.error]);
  return (
    <>
      <PageTitle title="Your account">Your account</PageTitle>
      <p>
        Signed in as <strong>{me.username}</strong> ({kind === "user" ? "listener" : "artist"}).
      </p>
      <div class="row">
        <button
          type="button"
          disabled={leave.busy}
          onClick={() =>
            leave.run(async () => {
              await signOut();
              route("/");
            })
          }
        >
          Sign out
        </button>
        <button
          type="button"
          disabled={leave.busy}
          onClick={() => leave.run(async () => download(await exportData(kind)))}
        >
          Export my data
        </button>
      </div>
      <ErrorMessage error={leave.error} />
      {/* An artist's display name is part of their public profile, in the studio. */}
      {current.kind === "user" && <DisplayNameSection user={current.user} />}
      <SessionsSection kind={kind} sessions={sessions} />
      <TwoFactorSection
        kind={kind}
        enabled={me.twoFactorEnabled}
        changed={(on) => {
          setTwoFactor(on);
          sessions.reload();
        }}
      />
      <PasswordSection kind={kind} changed={sessions.reload} />
      <AppPasswordsSection kind={kind} />
      <EmailSection
        kind={kind}
        email={current.kind === "user" ? current.user.email : undefined}
        verified={me.emailVerified}
        twoFactor={me.twoFactorEnabled}
      />
    </>
  );
}

/** Saves the export as a file (an object URL of this page, so nothing leaves the origin). */
function download(file: Blob) {
  const url = URL.createObjectURL(file);
  const link = document.createElement("a");
  link.href = url;
  link.download = `edge-music-export-${new Date().toISOString().slice(0, 10)}.json`;
  link.click();
  // Revoked a little later: the download reads the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
