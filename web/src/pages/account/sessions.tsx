// The account's live sessions: where it is signed in, and signing out the others.
import { useState } from "preact/hooks";
import type { Kind } from "../../api.ts";
import { useAction } from "../../ui/action.ts";
import { ErrorMessage, Loading } from "../../ui/parts.tsx";
import type { Resource } from "../../ui/resource.ts";
import { endOtherSessions, endSession, type Session } from "./auth-api.ts";
import { Status } from "./parts.tsx";

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

export function SessionsSection({ kind, sessions }: { kind: Kind; sessions: Resource<Session[]> }) {
  const action = useAction();
  const [status, setStatus] = useState<string | null>(null);
  const end = (work: () => Promise<string>) =>
    action.run(async () => {
      setStatus(null);
      setStatus(await work());
      sessions.reload();
    });
  const list = sessions.data;
  const others = list?.filter((s) => !s.current).length ?? 0;
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
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
            {list.map((s) => (
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
                      disabled={action.busy}
                      onClick={() =>
                        end(async () => {
                          await endSession(kind, s.id);
                          return `Signed out ${s.device}.`;
                        })
                      }
                    >
                      Sign out {s.device}
                    </button>
                  )}
                </td>
                <td>
                  <time dateTime={s.createdAt}>{when(s.createdAt)}</time>
                </td>
                <td>
                  <time dateTime={s.lastUsedAt}>{when(s.lastUsedAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="row">
        <button
          type="button"
          disabled={action.busy || others === 0}
          onClick={() =>
            end(async () => {
              const { ended } = await endOtherSessions(kind);
              return ended === 1
                ? "Signed out 1 other session."
                : `Signed out ${ended} other sessions.`;
            })
          }
        >
          Sign out everywhere else
        </button>
      </div>
      <ErrorMessage error={action.error} />
      <Status>{status}</Status>
    </section>
  );
}
