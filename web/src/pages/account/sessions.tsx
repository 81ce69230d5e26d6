// The account's live sessions: where it is signed in, and signing out the others.
import { useState } from "preact/hooks";
import type { Kind } from "../../api.ts";
import { endOtherSessions, endSession, type Session } from "../../auth-api.ts";
import { useAction } from "../../ui/action.ts";
import { useFocusAt } from "../../ui/focus.ts";
import { formatWhen } from "../../ui/format.ts";
import { ErrorMessage, Loading, Status } from "../../ui/messages.tsx";
import { type Resource, useLatest } from "../../ui/resource.ts";

export function SessionsSection({ kind, sessions }: { kind: Kind; sessions: Resource<Session[]> }) {
  // One sign-out at a time. The buttons are never disabled while one runs: the focused one would
  // drop the keyboard focus (the action's guard ignores a second press).
  const action = useAction();
  const [status, setStatus] = useState<string | null>(null);
  const latest = useLatest(sessions);
  // After a row goes: the next row's button, else the section's heading.
  const { box, focusAt } = useFocusAt<HTMLElement>("button[data-end]", (section) =>
    section?.querySelector<HTMLElement>("h2"),
  );
  const list = sessions.data;
  const others = list?.filter((s) => !s.current).length ?? 0;
  const endOne = (session: Session, button: number) =>
    action.run(async () => {
      setStatus(null);
      await endSession(kind, session.id);
      focusAt(button);
      latest.set(latest.get().filter((s) => s.id !== session.id));
      setStatus(`Signed out ${session.device}.`);
    });
  const endOthers = () => {
    if (others === 0) return;
    return action.run(async () => {
      setStatus(null);
      const { ended } = await endOtherSessions(kind);
      latest.set(latest.get().filter((s) => s.current));
      setStatus(
        ended === 1 ? "Signed out 1 other session." : `Signed out ${ended} other sessions.`,
      );
    });
  };
  return (
    <section aria-labelledby="sessions-heading" ref={box}>
      <h2 id="sessions-heading" tabIndex={-1}>
        Sessions
      </h2>
      {!list ? (
        sessions.error ? (
          <ErrorMessage error={sessions.error} />
        ) : (
          <Loading />
        )
      ) : (
        <table class="table" aria-labelledby="sessions-heading">
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
            </tr>
          </thead>
          <tbody>
            {list.map((s, row) => (
              <tr key={s.id}>
                <td>
                  {s.device}
                  <br />
                  {s.current ? (
                    <strong class="small">This device</strong>
                  ) : (
                    <button
                      type="button"
                      class="small"
                      aria-busy={action.busy}
                      data-end
                      // Its place among the buttons: the current session's row has none.
                      onClick={() =>
                        endOne(s, row - (list.slice(0, row).some((x) => x.current) ? 1 : 0))
                      }
                    >
                      Sign out {s.device}
                    </button>
                  )}
                </td>
                <td>
                  <time dateTime={s.createdAt}>{formatWhen(s.createdAt)}</time>
                </td>
                <td>
                  <time dateTime={s.lastUsedAt}>{formatWhen(s.lastUsedAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="row">
        <button
          type="button"
          aria-busy={action.busy}
          aria-disabled={others === 0}
          onClick={endOthers}
        >
          Sign out everywhere else
        </button>
      </div>
      <ErrorMessage error={action.error} />
      <Status>{status}</Status>
    </section>
  );
}
